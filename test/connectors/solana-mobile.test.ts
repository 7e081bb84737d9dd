import { afterEach, describe, expect, it, vi } from 'vitest'
import { registerSolanaMobileWalletAdapter, SOLANA_MOBILE_WALLET_NAME } from '../../src/connectors'

const MWA_NAME = 'Mobile Wallet Adapter'

import { isAppError } from '../../src/errors'
import { installBrowserWindow } from './browser-window'

// Issue 26 item 6: Solana Mobile Wallet Adapter (`@solana-mobile/wallet-standard-mobile`, the real
// package, a lazy optional peer) registered on Android so MWA wallets appear on the Wallet Standard
// path. Offline no MWA wallet app answers: what is tested is the registration the modal and
// `selectWallet('wallet-standard:Mobile Wallet Adapter')` read, and the missing peer.

const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36'

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('registerSolanaMobileWalletAdapter', () => {
  it('off Android it registers nothing (no import either)', async () => {
    installBrowserWindow()
    vi.stubGlobal('navigator', { userAgent: 'Mozilla/5.0 (X11; Linux x86_64)' })
    const importMwa = vi.fn(async () => ({}))
    expect(await registerSolanaMobileWalletAdapter({ importMwa })).toBe(false)
    expect(importMwa).not.toHaveBeenCalled()
  })

  it('a missing peer → WALLET_UNAVAILABLE saying how to install it; then the real package is registered with the app identity and chains', async () => {
    const window = installBrowserWindow('https://dapp.example/')
    vi.stubGlobal('navigator', { userAgent: ANDROID })
    vi.stubGlobal('localStorage', window.localStorage)
    // MWA registers only in a secure context (an https page); happy-dom does not say it is one.
    Object.defineProperty(window, 'isSecureContext', { value: true, configurable: true })
    const error = await registerSolanaMobileWalletAdapter({
      importMwa: () => Promise.reject(new Error('Cannot find package')),
    }).catch((e: unknown) => e)
    expect(isAppError(error, 'WALLET_UNAVAILABLE')).toBe(true)
    expect((error as Error).message).toContain('npm install @solana-mobile/wallet-standard-mobile')
    // The real package, its registerMwa observed: it gets the app identity, the chains and the
    // package's own default cache, chain selector and not-found handler. (Under happy-dom the real
    // registerMwa then declines, "device or environment not supported": the association check
    // needs a real Android Chrome, out of reach here.)
    const real = (await import('@solana-mobile/wallet-standard-mobile')) as unknown as Record<
      string,
      unknown
    > & { registerMwa(config: unknown): void }
    const seen: Record<string, unknown>[] = []
    expect(
      await registerSolanaMobileWalletAdapter({
        importMwa: async () => ({
          ...real,
          registerMwa: (config: Record<string, unknown>) => {
            seen.push(config)
            real.registerMwa(config)
          },
        }),
        appIdentity: { name: 'Scope test' },
        chains: ['solana:devnet'],
      }),
    ).toBe(true)
    expect(SOLANA_MOBILE_WALLET_NAME).toBe(MWA_NAME)
    expect(real.SolanaMobileWalletAdapterWalletName).toBe(MWA_NAME)
    expect(seen).toHaveLength(1)
    expect(seen[0]).toMatchObject({
      appIdentity: { name: 'Scope test', uri: 'https://dapp.example' },
      chains: ['solana:devnet'],
    })
    expect(typeof (seen[0]?.onWalletNotFound as unknown)).toBe('function')
    expect(seen[0]?.authorizationCache).toBeTruthy()
    const broken = await registerSolanaMobileWalletAdapter({ importMwa: async () => ({}) }).catch(
      (e: unknown) => e,
    )
    expect(isAppError(broken, 'WALLET_UNAVAILABLE')).toBe(true)
  })
})
