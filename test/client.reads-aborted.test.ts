import type { Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import { SOLANA_DEVNET } from '../server/test/support/server'
import { Client, type ClientOptions } from '../src/client'
import { Eip1193Connector } from '../src/connectors/eip1193'
import { AppError } from '../src/errors/app-error'
import { TEST_PARTNER_WALLET, TEST_PARTNER_WALLET_ID } from '../src/testing'
import type { UniversalLinkStore } from '../src/universal-link/store'
import { useBackendWithAnvil } from './support/backend-with-anvil'
import { createEip1193TestWallet } from './support/eip1193-wallet'
import { textLinkStore } from './support/text-link-store'

// Issue 27, finding 4 and the small ones: a read in flight (getBalance, getBalances, loadConfig)
// rejects with AppError `ABORTED` when its root goes — replaced by `resume()` restoring a
// universal-link flow on page load, or stopped — and never resolves `undefined`; a stopped root's
// view is consistent. Real parts: the server on anvil (its answers held back while the root goes),
// a real universal-link session for the stored flow, a wallet on viem keys.

const backend = useBackendWithAnvil()
const ACCOUNT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

/** The dApp's fetch: the backend's answers to reads wait until `release()` (held in flight). */
function holdingFetch() {
  const held: Array<() => void> = []
  let holding = true
  const fetchImpl: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    if (holding && /balances|config/.test(url)) await new Promise<void>((r) => held.push(r))
    return fetch(input, init)
  }
  return {
    fetchImpl,
    release() {
      holding = false
      for (const r of held.splice(0)) r()
    },
  }
}

const mobileOptions = (
  store: UniversalLinkStore,
  extra: Partial<ClientOptions> = {},
): ClientOptions => ({
  baseUrl: backend.server.baseUrl,
  appKey: backend.server.appKey,
  mobile: true,
  partnerWallets: [TEST_PARTNER_WALLET],
  solanaChainId: SOLANA_DEVNET,
  connectionStore: null,
  universalLink: {
    store,
    openLink: () => {},
    returnUrl: 'https://dapp.example/',
    pollIntervalMs: 20,
  },
  ...extra,
})

/** A store holding a live universal-link flow (the wallet was opened), as on page load. */
async function storedLinkFlow() {
  const store = textLinkStore()
  const before = new Client(mobileOptions(store))
  await before.selectWallet(TEST_PARTNER_WALLET_ID, { namespace: 'solana' })
  void before.connect().catch(() => {})
  for (let i = 0; i < 200 && store.value === null; i++) await new Promise((r) => setTimeout(r, 5))
  before.actor.stop()
  expect(store.value).not.toBeNull()
  return store
}

type Read = 'getBalance' | 'getBalances' | 'loadConfig'
const read = (client: Client, which: Read): Promise<unknown> =>
  which === 'getBalance'
    ? client.getBalance({ chainId: 'eip155:31337', tokenAddress: 'native', account: ACCOUNT })
    : which === 'getBalances'
      ? client.getBalances([{ chainId: 'eip155:31337', tokenAddress: 'native', account: ACCOUNT }])
      : client.loadConfig()

const outcome = (promise: Promise<unknown>) =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  )

const READS: Read[] = ['getBalance', 'getBalances', 'loadConfig']

describe('reads in flight when their root goes (finding 4)', () => {
  for (const which of READS) {
    it(`error: ${which} in flight while resume() restores a universal-link flow on load — ABORTED, not undefined`, async () => {
      const store = await storedLinkFlow()
      const held = holdingFetch()
      const client = new Client(mobileOptions(store, { fetchImpl: held.fetchImpl }))
      const reading = outcome(read(client, which))
      const resumed = await client.resume()
      expect(resumed.status).toBe('awaitingWallet')
      held.release()
      const settled = await reading
      expect(settled).toEqual({ error: expect.any(AppError) })
      expect((settled as { error: AppError }).error.code).toBe('ABORTED')
      // The next read works on the restored root.
      await expect(read(client, which)).resolves.toBeDefined()
      client.cancel()
    })

    it(`error: ${which} in flight when the root is stopped — ABORTED`, async () => {
      const held = holdingFetch()
      const client = new Client({
        baseUrl: backend.server.baseUrl,
        appKey: backend.server.appKey,
        connectionStore: null,
        fetchImpl: held.fetchImpl,
      })
      const reading = outcome(read(client, which))
      await new Promise((r) => setTimeout(r, 20))
      client.actor.stop()
      held.release()
      const settled = (await reading) as { error?: AppError }
      expect(settled.error).toBeInstanceOf(AppError)
      expect(settled.error?.code).toBe('ABORTED')
      await expect(read(client, which)).resolves.toBeDefined()
    })
  }
})

describe('a stopped root shows a consistent view', () => {
  it('error: stopped while connected and signing — status stopped, not connected, not busy, nothing pending', async () => {
    const wallet = await createEip1193TestWallet({ rpcUrl: backend.anvil.rpcUrl })
    const client = new Client({
      baseUrl: backend.server.baseUrl,
      appKey: backend.server.appKey,
      connectors: [new Eip1193Connector('metamask', () => wallet)],
      mobile: false,
      connectionStore: null,
    })
    const address = (await client.connect()).accounts[0] as Hex
    const signing = outcome(client.signMessage('stopped mid-signature'))
    client.actor.stop()
    expect(client.getView()).toMatchObject({
      status: 'stopped',
      isConnected: false,
      isBusy: false,
      canSign: false,
      canCancel: false,
      pending: null,
      address: null,
      accounts: [],
      walletUrl: null,
      pairingUri: null,
    })
    expect(client.getConnection()).toBeNull()
    expect(((await signing) as { error?: AppError }).error?.code).toBe('ABORTED')
    // The next call starts a fresh root.
    await client.connect()
    expect(client.getView().address).toBe(address)
  })
})
