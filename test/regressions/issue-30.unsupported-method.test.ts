// Issue 30, "a public surface that says what it is": a method a universal link cannot carry is
// refused with `UNSUPPORTED_METHOD` (EIP-1193 4200) before anything is sent (it was `WALLET_ERROR`,
// the code of a wallet's own error answer). Through the public `UniversalLinkConnector`, against
// the real backend and the reference wallet simulator (real ed25519 key); after each refusal the
// next supported call works. (The `Client` routes universal links for Solana only, where
// `signTypedData` is refused as EVM-only.)
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWalletSimulator } from '../../examples/wallet-simulator/src/index'
import {
  SOLANA_DEVNET,
  startTestServer,
  TEST_PROJECT,
  type TestServer,
} from '../../server/test/support/server'
import { UniversalLinkConnector } from '../../src/connectors'
import { isAppError } from '../../src/errors'
import { GenericWalletSessionClient } from '../../src/session/client'
import { TEST_PARTNER_WALLET_ID } from '../../src/testing'
import type { UniversalLinkPersistedState } from '../../src/universal-link/persisted-state'
import type { UniversalLinkStore } from '../../src/universal-link/store'
import { withTestPartnerWallet } from '../support/partner-project'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer({ projects: { projects: [withTestPartnerWallet(TEST_PROJECT)] } })
})
afterAll(() => server.close())

function memoryStore() {
  let value: string | null = null
  const store: UniversalLinkStore & { raw(): string | null } = {
    save: (state: UniversalLinkPersistedState) => {
      value = JSON.stringify(state)
    },
    load: () => (value === null ? null : (JSON.parse(value) as UniversalLinkPersistedState)),
    clear: () => {
      value = null
    },
    raw: () => value,
  }
  return store
}

async function until(condition: () => boolean) {
  for (let i = 0; i < 600 && !condition(); i++) await new Promise((r) => setTimeout(r, 5))
  expect(condition()).toBe(true)
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (isAppError(error) ? error.code : String(error)),
  )

/** Any method name but the two a universal link carries. */
const unknownMethod = fc
  .oneof(
    fc.constantFrom(
      'personal_sign',
      'eth_signTypedData_v4',
      'eth_sendTransaction',
      'solana_signAndSendTransaction',
      'solana_signAllTransactions',
      'SOLANA_SIGNMESSAGE',
      '',
    ),
    fc.string(),
  )
  .filter((method) => method !== 'solana_signMessage' && method !== 'solana_signTransaction')

describe('issue 30: UniversalLinkConnector.request() refuses a method it cannot carry', () => {
  it('before a connection: UNSUPPORTED_METHOD (the method is checked first), no link opened', async () => {
    const links: string[] = []
    const connector = new UniversalLinkConnector({
      walletId: TEST_PARTNER_WALLET_ID,
      universalLink: 'https://wallet.scope-connect.test/ul/',
      session: new GenericWalletSessionClient(server.baseUrl, server.appKey),
      chainId: SOLANA_DEVNET,
      openLink: (url) => links.push(url),
    })
    expect(await codeOf(connector.request({ method: 'personal_sign', params: ['0x00'] }))).toBe(
      'UNSUPPORTED_METHOD',
    )
    // Garbage arguments are refused the same way, never a raw TypeError.
    expect(await codeOf(connector.request(null as never))).toBe('UNSUPPORTED_METHOD')
    expect(await codeOf(connector.request({ method: 42 } as never))).toBe('UNSUPPORTED_METHOD')
    // A supported method still says what is missing.
    expect(await codeOf(connector.request({ method: 'solana_signMessage' }))).toBe('NOT_CONNECTED')
    expect(links).toEqual([])
  })

  it('property: connected, any other method rejects UNSUPPORTED_METHOD, nothing is sent, and the next solana_signMessage signs', async () => {
    const wallet = createWalletSimulator({ walletSlug: TEST_PARTNER_WALLET_ID })
    const store = memoryStore()
    const links: string[] = []
    const connector = new UniversalLinkConnector({
      walletId: TEST_PARTNER_WALLET_ID,
      universalLink: 'https://wallet.scope-connect.test/ul/',
      session: new GenericWalletSessionClient(server.baseUrl, server.appKey),
      chainId: SOLANA_DEVNET,
      store,
      openLink: (url) => links.push(url),
      pollIntervalMs: 20,
    })
    const connecting = connector.connect()
    await until(() => links.length === 1)
    await wallet.handle(links[0] ?? '')
    await connecting

    await fc.assert(
      fc.asyncProperty(unknownMethod, async (method) => {
        const opened = links.length
        expect(await codeOf(connector.request({ method, params: { message: 'hi' } }))).toBe(
          'UNSUPPORTED_METHOD',
        )
        expect(links.length).toBe(opened)
        expect(connector.getAccounts()).toEqual([wallet.address])
        expect(JSON.parse(store.raw() ?? '{}').snapshot.value).toBe('connected')
      }),
      { numRuns: 25 },
    )

    const signing = connector.request<{ signature: string; publicKey: string }>({
      method: 'solana_signMessage',
    })
    await until(() => links.length === 2)
    expect(new URL(links[1] ?? '').searchParams.get('scMethod')).toBe('signMessage')
    await wallet.handle(links[1] ?? '')
    expect((await signing).publicKey).toBe(wallet.address)
    await connector.disconnect()
  })
})
