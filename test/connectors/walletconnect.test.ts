import { hashMessage, recoverMessageAddress, toHex } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { WalletConnectConnector } from '../../src/connectors'
import type { ConnectorEvent } from '../../src/connectors/types'
import { type AppError, isAppError } from '../../src/errors'
import {
  startWalletConnectRelayDouble,
  type WalletConnectRelayDouble,
} from '../support/walletconnect-relay-double'
import {
  MemoryWalletConnectStorage,
  startWalletConnectWallet,
  type TestWalletConnectWallet,
} from '../support/walletconnect-wallet'

const CHAIN = 'eip155:31337' as const
const metadata = { name: 'Test dApp', description: 'test', url: 'https://dapp.test', icons: [] }

let relay: WalletConnectRelayDouble
let wallet: TestWalletConnectWallet
const connectors: WalletConnectConnector[] = []

beforeAll(async () => {
  relay = await startWalletConnectRelayDouble()
  wallet = await startWalletConnectWallet({ relayUrl: relay.url })
})
afterAll(async () => {
  await wallet?.close()
  await relay?.close()
})
afterEach(async () => {
  wallet.proposals = 'approve'
  wallet.requests = 'approve'
  relay.silence = false
  for (const c of connectors.splice(0)) await c.disconnect()
})

function newConnector(storage = new MemoryWalletConnectStorage(), extra = {}) {
  const connector = new WalletConnectConnector({
    projectId: 'test-project',
    metadata,
    relayUrl: relay.url,
    chains: [CHAIN],
    storage,
    importSignClient: () => import('@walletconnect/sign-client'),
    ...extra,
  })
  connectors.push(connector)
  return connector
}

/** Connects `connector`, the wallet pairing from the `wc:` URI the connector reports. */
async function pairAndConnect(connector: WalletConnectConnector) {
  const events: ConnectorEvent[] = []
  connector.subscribe((event) => {
    events.push(event)
    if (event.type === 'displayUri') void wallet.pair(event.uri)
  })
  const connection = await connector.connect()
  return { connection, events }
}

describe('WalletConnectConnector over the relay double, a sign-client wallet on the other side', () => {
  it('reports the wc: URI, then connects with the wallet account and chain', async () => {
    const connector = newConnector()
    const { connection, events } = await pairAndConnect(connector)
    const uri = events.find((e) => e.type === 'displayUri')
    expect(uri && 'uri' in uri && uri.uri).toMatch(/^wc:[0-9a-f]{64}@2\?/)
    expect(connection).toEqual({
      walletId: undefined,
      connectorId: 'walletconnect',
      namespace: 'eip155',
      chainId: CHAIN,
      accounts: [wallet.account.address],
    })
    expect(relay.requests).toContain('wc_proposeSession')
    expect(relay.requests).toContain('wc_approveSession')
  }, 30_000)

  it('signs with personal_sign through the session', async () => {
    const connector = newConnector()
    await pairAndConnect(connector)
    const message = 'hello walletconnect'
    const signature = await connector.request<`0x${string}`>({
      method: 'personal_sign',
      params: [toHex(message), wallet.account.address],
    })
    expect(await recoverMessageAddress({ message, signature })).toBe(wallet.account.address)
    expect(hashMessage(message)).toBeTruthy()
  }, 30_000)

  it('a rejected request is USER_REJECTED, a wallet error WALLET_ERROR; the next call works', async () => {
    const connector = newConnector()
    await pairAndConnect(connector)
    wallet.requests = 'reject'
    const rejected = await connector
      .request({ method: 'personal_sign', params: [toHex('x'), wallet.account.address] })
      .catch((e: unknown) => e)
    expect(isAppError(rejected, 'USER_REJECTED')).toBe(true)
    wallet.requests = 'error'
    const failed = await connector
      .request({ method: 'personal_sign', params: [toHex('x'), wallet.account.address] })
      .catch((e: unknown) => e)
    expect(isAppError(failed, 'WALLET_ERROR')).toBe(true)
    wallet.requests = 'approve'
    const signature = await connector.request<`0x${string}`>({
      method: 'personal_sign',
      params: [toHex('after'), wallet.account.address],
    })
    expect(await recoverMessageAddress({ message: 'after', signature })).toBe(
      wallet.account.address,
    )
  }, 30_000)

  it('a rejected proposal is USER_REJECTED, and the next connect works', async () => {
    const connector = newConnector()
    wallet.proposals = 'reject'
    const error = await pairAndConnect(connector).catch((e: unknown) => e)
    expect(isAppError(error, 'USER_REJECTED')).toBe(true)
    wallet.proposals = 'approve'
    const { connection } = await pairAndConnect(connector)
    expect(connection.accounts).toEqual([wallet.account.address])
  }, 30_000)

  it('disconnect() while the approval is pending rejects connect() ABORTED', async () => {
    const connector = newConnector()
    wallet.proposals = 'hang'
    const pending = pairAndConnect(connector).catch((e: unknown) => e)
    await relay.waitFor('wc_proposeSession')
    await new Promise((r) => setTimeout(r, 200))
    await connector.disconnect()
    expect(isAppError(await pending, 'ABORTED')).toBe(true)
    wallet.proposals = 'approve'
    const { connection } = await pairAndConnect(connector)
    expect(connection.chainId).toBe(CHAIN)
  }, 30_000)

  it('the wallet deleting the session emits disconnect and clears the accounts', async () => {
    const connector = newConnector()
    const { events } = await pairAndConnect(connector)
    const topic = wallet.client.session.getAll().at(-1)?.topic ?? ''
    const gone = new Promise<void>((resolve) =>
      connector.subscribe((e) => e.type === 'disconnect' && resolve()),
    )
    await wallet.deleteSession(topic)
    await gone
    expect(events.at(-1)).toEqual({ type: 'disconnect' })
    expect(connector.getAccounts()).toEqual([])
    const error = await connector.request({ method: 'personal_sign', params: [] }).catch((e) => e)
    expect(isAppError(error, 'NOT_CONNECTED')).toBe(true)
  }, 30_000)

  it('reconnect() restores the session from the same storage after a "reload", without a prompt', async () => {
    const storage = new MemoryWalletConnectStorage()
    const first = newConnector(storage)
    const { connection } = await pairAndConnect(first)
    // A reload: a new connector (and sign-client) on the same storage.
    const second = newConnector(storage)
    const proposalsBefore = relay.requests.filter((m) => m === 'wc_proposeSession').length
    const restored = await second.reconnect()
    expect(restored).toEqual(connection)
    expect(relay.requests.filter((m) => m === 'wc_proposeSession').length).toBe(proposalsBefore)
    const signature = await second.request<`0x${string}`>({
      method: 'personal_sign',
      params: [toHex('reloaded'), wallet.account.address],
    })
    expect(await recoverMessageAddress({ message: 'reloaded', signature })).toBe(
      wallet.account.address,
    )
    expect(await newConnector().reconnect()).toBeNull()
  }, 30_000)

  it('rejects WALLET_UNAVAILABLE naming the package when sign-client is missing; then loads', async () => {
    let fail = true
    const connector = newConnector(undefined, {
      importSignClient: () =>
        fail
          ? Promise.reject(new Error("Cannot find package '@walletconnect/sign-client'"))
          : import('@walletconnect/sign-client'),
    })
    const error = await connector.connect().catch((e: unknown) => e)
    expect(isAppError(error, 'WALLET_UNAVAILABLE')).toBe(true)
    expect((error as AppError).message).toContain('npm install @walletconnect/sign-client')
    expect(connector.isAvailable()).toBe(false)
    fail = false
    expect(await connector.reconnect()).toBeNull()
    expect(connector.isAvailable()).toBe(true)
  }, 30_000)
})
