import { afterEach, describe, expect, it, vi } from 'vitest'
import { Client, type ClientOptions } from '../../src/client'
import { createMemoryConnectionStore } from '../../src/connection/memory-store'
import { connectorKindForWallet } from '../../src/connectors/connector-kind'
import { createConnectorForWallet } from '../../src/connectors/create-connector'
import { loadConnectorForWallet } from '../../src/connectors/load-connector'
import { createMemoryPhantomLinkStore } from '../../src/phantom-link/browser-store'
import { PhantomLinkConnector } from '../../src/phantom-link/face/connector'
import { getWalletInfo } from '../../src/registry'
import type { SupportWalletInfo } from '../../src/registry/types'
import { TEST_PARTNER_WALLET } from '../../src/testing'
import { createPhantomPhoneDouble } from '../support/phantom-phone-double'

// The Client over Phantom's deeplinks: a page opens the wallet's link and "navigates away" (the
// Client is dropped); the phone double answers; a new page's Client resumes with the redirect URL.

const PAGE = 'https://dapp.example/'

function world() {
  const phone = createPhantomPhoneDouble()
  const store = createMemoryPhantomLinkStore()
  const connections = createMemoryConnectionStore()
  const links: string[] = []
  const page = (extra: Partial<ClientOptions> = {}) =>
    new Client({
      baseUrl: 'http://127.0.0.1:9',
      appKey: 'sample-app-key',
      mobile: true,
      connectionStore: connections,
      connectors: [
        new PhantomLinkConnector({
          walletId: 'phantom',
          baseUrl: 'https://phantom.app/ul/v1/',
          redirectLink: PAGE,
          store,
          openLink: (url) => links.push(url),
        }),
      ],
      ...extra,
    })
  return { phone, store, links, page, answer: () => phone.handle(links.at(-1) as string) }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('Client.resume({ url }) over Phantom’s deeplinks', () => {
  it('connects after the navigation, signs after another, and a replayed answer is refused', async () => {
    const w = world()
    const first = w.page()
    await first.selectWallet('phantom', { namespace: 'solana' })
    void first.connect().catch(() => {})
    await vi.waitFor(() => expect(w.links).toHaveLength(1))
    const back = w.answer()

    const second = w.page()
    const resumed = await second.resume({ url: back })
    expect(resumed.status).toBe('connected')
    expect(second.getView().isConnected).toBe(true)
    expect(second.getConnection()).toMatchObject({
      namespace: 'solana',
      accounts: [w.phone.address],
    })

    void second.signMessage('Sign in to dapp.example').catch(() => {})
    await vi.waitFor(() => expect(w.links).toHaveLength(2))
    const signedBack = w.answer()
    const third = w.page()
    const signed = await third.resume({ url: signedBack })
    if (signed.status !== 'signed') throw new Error(`not signed: ${signed.status}`)
    const signature = await signed.signature()
    expect(w.phone.verify(signature, new TextEncoder().encode('Sign in to dapp.example'))).toBe(
      true,
    )
    expect(third.getView().isConnected).toBe(true)

    const replayed = await w.page().resume({ url: signedBack })
    expect(replayed).toMatchObject({ status: 'refused', error: { code: 'WALLET_ERROR' } })
    // The flow is kept: a page without an answer resumes connected.
    expect((await w.page().resume({ url: PAGE })).status).toBe('connected')
  })

  it('the same page: a pending signMessage settles when resume({ url }) takes the answer', async () => {
    const w = world()
    const page = w.page()
    await page.selectWallet('phantom', { namespace: 'solana' })
    const connecting = page.connect()
    await vi.waitFor(() => expect(w.links).toHaveLength(1))
    await page.resume({ url: w.answer() })
    await expect(connecting).resolves.toMatchObject({ accounts: [w.phone.address] })
    const signing = page.signMessage('hi')
    await vi.waitFor(() => expect(w.links).toHaveLength(2))
    expect((await page.resume({ url: w.answer() })).status).toBe('signed')
    expect(w.phone.verify(await signing, new TextEncoder().encode('hi'))).toBe(true)
  })

  it('failure twins through the Client: 4001 → USER_REJECTED, a forged answer refused, then the next connect works', async () => {
    const w = world()
    w.phone.setMode('reject')
    const first = w.page()
    await first.selectWallet('phantom', { namespace: 'solana' })
    void first.connect().catch(() => {})
    await vi.waitFor(() => expect(w.links).toHaveLength(1))
    const rejected = await w.page().resume({ url: w.answer() })
    expect(rejected).toMatchObject({ status: 'failed', error: { code: 'USER_REJECTED' } })

    w.phone.setMode('approve')
    const again = w.page()
    await again.selectWallet('phantom', { namespace: 'solana' })
    void again.connect().catch(() => {})
    await vi.waitFor(() => expect(w.links).toHaveLength(2))
    const back = new URL(w.answer())
    const forged = new URL(back)
    forged.searchParams.set('data', 'forged')
    const page = w.page()
    expect(await page.resume({ url: forged.toString() })).toMatchObject({ status: 'refused' })
    expect(page.getView().isConnected).toBe(false)
    expect((await page.resume({ url: back.toString() })).status).toBe('connected')
    expect(page.getView().isConnected).toBe(true)
    // An answer with no flow stored anywhere.
    const stranger = world().page()
    expect(await stranger.resume({ url: back.toString() })).toMatchObject({ status: 'refused' })
    expect((await stranger.resume({ url: PAGE })).status).toBe('none')
  })
})

describe('routing: a phone, the solana namespace, a wallet with phantomLink', () => {
  // A wallet with Phantom's deeplinks that also ships the sc* universal links (a partner's entry).
  const withPartnerLink: SupportWalletInfo = {
    ...getWalletInfo('phantom'),
    mobile: TEST_PARTNER_WALLET.mobile,
  } as unknown as SupportWalletInfo

  it('goes to phantom-link; desktop stays on the Wallet Standard; a partner universal link is kept', async () => {
    const phantom = getWalletInfo('phantom')
    const solflare = getWalletInfo('solflare')
    expect(phantom.phantomLink?.baseUrl).toBe('https://phantom.app/ul/v1/')
    expect(solflare.phantomLink?.baseUrl).toBe('https://solflare.com/ul/v1/')
    // The built-in brands declare no sc* link: on a phone they take their own deeplinks.
    expect(phantom.mobile).toBeUndefined()
    expect(connectorKindForWallet(phantom, 'solana', true)).toBe('phantom-link')
    expect(connectorKindForWallet(solflare, 'solana', true)).toBe('phantom-link')
    expect(connectorKindForWallet(phantom, 'solana', false)).toBe('solana-injected')
    expect(connectorKindForWallet(withPartnerLink, 'solana', true)).toBe('universal-link')
    const built = createConnectorForWallet(phantom, 'solana', {
      mobile: true,
      phantomLink: { redirectLink: PAGE },
    })
    expect(built).toBeInstanceOf(PhantomLinkConnector)
    const loaded = await loadConnectorForWallet(phantom, 'solana', { mobile: true })
    expect(loaded).toBeInstanceOf(PhantomLinkConnector)
    expect(loaded.id).toBe('phantom')
  })
})
