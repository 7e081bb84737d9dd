// @vitest-environment happy-dom-node
import { afterAll, describe, expect, expectTypeOf, it } from 'vitest'
import { defineConnectElements } from '../../src/ui'
import { applyMessages, M } from '../../src/ui/lazy/messages/active'
import { ar } from '../../src/ui/lazy/messages/ar'
import { type ConnectMessages, en } from '../../src/ui/lazy/messages/en'
import { es } from '../../src/ui/lazy/messages/es'

// Every string of the elements comes from one messages object: English built in, Spanish and
// Arabic (right to left) loaded lazily, any key overridable through defineConnectElements.

const LOCALES = { es, ar }

describe('the locales', () => {
  afterAll(() => applyMessages())

  it('have every key of English, of the same kind (a function where English interpolates)', () => {
    expectTypeOf(es).toEqualTypeOf<ConnectMessages>()
    expectTypeOf(ar).toEqualTypeOf<ConnectMessages>()
    for (const [name, messages] of Object.entries(LOCALES)) {
      expect(Object.keys(messages).sort(), name).toEqual(Object.keys(en).sort())
      for (const key of Object.keys(en) as (keyof ConnectMessages)[]) {
        expect(typeof messages[key], `${name}.${key}`).toBe(typeof en[key])
        if (typeof messages[key] === 'string') expect(messages[key], `${name}.${key}`).not.toBe('')
      }
    }
    expect(es.dir).toBe('ltr')
    expect(ar.dir).toBe('rtl')
  })

  it('translate: the strings differ from English (bar names such as "App")', () => {
    for (const messages of Object.values(LOCALES)) {
      expect(messages.titleWallets).not.toBe(en.titleWallets)
      expect(messages.connectWallet).not.toBe(en.connectWallet)
      expect(messages.waitingFor('Rabby')).toContain('Rabby')
      expect(messages.waitingFor('Rabby')).not.toBe(en.waitingFor('Rabby'))
    }
  })

  it('load by name, an override of one key wins, an unknown locale keeps English', async () => {
    await applyMessages({ locale: 'es', messages: { cancel: 'Anular' } })
    expect(M.titleWallets).toBe('Conecta una billetera')
    expect(M.cancel).toBe('Anular')
    await applyMessages({ locale: 'xx' })
    expect(M.titleWallets).toBe('Connect a wallet')
    expect(M.cancel).toBe('Cancel')
  })
})

describe('defineConnectElements({ locale, messages })', () => {
  it('renders the button in the locale, right to left, with the overridden key', async () => {
    defineConnectElements({ locale: 'ar', messages: { connectWallet: 'اربط الآن' } })
    const button = document.createElement('scope-connect-button')
    document.body.append(button)
    let chip: HTMLElement | null | undefined = null
    for (let i = 0; i < 200 && !chip?.textContent; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10))
      chip = button.shadowRoot?.querySelector<HTMLElement>('.chip')
    }
    expect(chip?.textContent).toBe('اربط الآن')
    expect(chip?.getAttribute('dir')).toBe('rtl')
    expect(button.shadowRoot?.querySelector('.tw')?.getAttribute('dir')).toBe('rtl')
    const dialog = button.shadowRoot
      ?.querySelector('scope-connect-modal')
      ?.shadowRoot?.querySelector('dialog')
    expect(dialog?.getAttribute('dir')).toBe('rtl')
    expect(dialog?.querySelector('.x')?.getAttribute('aria-label')).toBe('إغلاق')
    button.remove()
  })
})
