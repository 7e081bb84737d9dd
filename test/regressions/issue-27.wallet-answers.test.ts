// Issue 27, "wallet answers are not checked": a non-hex or 5 MB "signature" was returned as the
// signature, `["not-an-address"]` became the connection, and a custom connector's
// `accounts: "0x…"` was spread into characters. Random wallet answers (fast-check) through the
// public API, with the real backend, anvil and an EIP-1193 wallet on a real key; the broken
// answers are injected by wrapping that wallet (each wrapper names the fault it plays).
import fc from 'fast-check'
import { getAddress, type Hex } from 'viem'
import { afterEach, describe, expect, it } from 'vitest'
import { Client } from '../../src/client'
import { Eip1193Connector } from '../../src/connectors/eip1193'
import type {
  ConnectorEvent,
  IWalletConnector,
  RequestArgs,
  WalletConnection,
} from '../../src/connectors/types'
import { isAppError } from '../../src/errors'
import { createMemoryTransactionStore } from '../../src/transaction'
import { useBackendWithAnvil } from '../support/backend-with-anvil'
import { createEip1193TestWallet, type TestEip1193Wallet } from '../support/eip1193-wallet'
import { ANVIL_KEY_1 } from '../support/evm-transactions'

const backend = useBackendWithAnvil()
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const clients: Client[] = []
afterEach(() => {
  for (const client of clients.splice(0)) client.actor.stop()
})

function client(connector: IWalletConnector): Client {
  const made = new Client({
    baseUrl: backend.server.baseUrl,
    appKey: backend.server.appKey,
    connectors: [connector],
    mobile: false,
    connectionStore: null,
    transactions: { store: createMemoryTransactionStore() },
  })
  clients.push(made)
  return made
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (isAppError(error) ? error.code : String(error)),
  )

/** A custom connector whose `connect()` answers `answer` (a broken custom connector). */
function answeringConnector(answer: () => unknown): IWalletConnector & {
  emit(event: ConnectorEvent): void
} {
  const listeners = new Set<(event: ConnectorEvent) => void>()
  return {
    id: 'custom-wallet',
    isAvailable: () => true,
    connect: async () => answer() as WalletConnection,
    getAccounts: () => [],
    disconnect: async () => {},
    request: async () => {
      throw new Error('not used')
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    emit(event) {
      for (const listener of listeners) listener(event)
    },
  }
}

/** The real EIP-1193 wallet, except that `method` answers what `answer` gives (a broken wallet). */
function answeringWallet(
  wallet: TestEip1193Wallet,
  method: string,
  answer: (args: RequestArgs) => unknown,
): Eip1193Connector {
  const provider = {
    request: async (args: RequestArgs) =>
      args.method === method ? answer(args) : wallet.request(args),
    on: wallet.on.bind(wallet),
    removeListener: wallet.removeListener.bind(wallet),
  }
  return new Eip1193Connector('metamask', () => provider)
}

const address = fc
  .uint8Array({ minLength: 20, maxLength: 20 })
  .map((bytes) => `0x${Buffer.from(bytes).toString('hex')}`)
const connection = (accounts: unknown, more: object = {}) => ({
  walletId: undefined,
  connectorId: 'custom-wallet',
  namespace: 'eip155',
  chainId: 'eip155:31337',
  accounts,
  ...more,
})
/** An EIP-55 address with one letter's case flipped: a broken checksum. */
const badChecksum = address
  .map((a) => getAddress(a))
  .filter((a) => /[a-fA-F]/.test(a.slice(2)))
  .map((a) => {
    const i = a.slice(2).search(/[a-fA-F]/) + 2
    const c = a[i] as string
    return (
      a.slice(0, i) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + a.slice(i + 1)
    )
  })
  .filter((a) => a.slice(2) !== a.slice(2).toLowerCase() && a.slice(2) !== a.slice(2).toUpperCase())

const badConnection = fc.oneof(
  address.map((a) => connection(a)), // a string, not a list
  fc.constant(connection(['not-an-address'])),
  fc.constant(connection([])),
  fc.array(fc.string({ maxLength: 50 }), { minLength: 1, maxLength: 3 }).map(connection),
  address.map((a) => connection([a.slice(0, 40)])),
  badChecksum.map((a) => connection([a])),
  address.map((a) => connection([a], { chainId: 'eip155:0x1' })),
  address.map((a) => connection([a], { namespace: 'cosmos' })),
  fc.anything().filter((v) => typeof v !== 'object' || v === null),
)
const goodConnection = fc.oneof(
  address.map((a) => connection([a])),
  address.map((a) => connection([getAddress(a), a.toUpperCase().replace('0X', '0x')])),
)

describe('issue 27: wallet answers are checked (WALLET_ERROR)', () => {
  it('behavior: a connection whose accounts, chain or namespace is not valid is refused, never half taken; a valid one connects', async () => {
    await fc.assert(
      fc.asyncProperty(badConnection, goodConnection, async (bad, good) => {
        let answer: unknown = bad
        const c = client(answeringConnector(() => answer))
        expect(await codeOf(c.connect())).toBe('WALLET_ERROR')
        expect(c.getView()).toMatchObject({ isConnected: false, address: null, accounts: [] })
        answer = good
        const connected = await c.connect()
        expect(connected.accounts).toEqual(good.accounts)
        c.actor.stop()
      }),
      { numRuns: 40 },
    )
  })

  it('behavior: an accountsChanged with accounts that are not addresses is dropped', async () => {
    const [account] = await fc.sample(address, 1)
    const connector = answeringConnector(() => connection([account]))
    const c = client(connector)
    await c.connect()
    connector.emit({ type: 'accountsChanged', accounts: ['not-an-address'] })
    connector.emit({ type: 'chainChanged', chainId: 'solana:devnet' as never })
    expect(c.getView()).toMatchObject({ address: account, chainId: 'eip155:31337' })
  })

  it('behavior: signatures — non-hex, odd, empty, objects and anything over 8 KiB are refused; 65 bytes and longer smart-account signatures pass', async () => {
    const wallet = await createEip1193TestWallet({
      rpcUrl: backend.anvil.rpcUrl,
      privateKeys: [ANVIL_KEY_1],
    })
    let answer: unknown = null
    const c = client(answeringWallet(wallet, 'personal_sign', () => answer))
    await c.connect()
    const hexOf = (n: number) =>
      fc
        .uint8Array({ minLength: n, maxLength: n })
        .map((b) => `0x${Buffer.from(b).toString('hex')}`)
    const bad = fc.oneof(
      fc.string({ maxLength: 200 }).filter((s) => !/^0x(?:[0-9a-fA-F]{2})+$/.test(s)),
      hexOf(65).map((h) => h.slice(0, -1)), // odd
      fc.constant('0x'),
      fc.anything().filter((v) => typeof v !== 'string'),
      fc.constant(`0x${'ab'.repeat(8_193)}`),
    )
    const good = fc.oneof(hexOf(65), fc.integer({ min: 66, max: 8_192 }).chain(hexOf))
    await fc.assert(
      fc.asyncProperty(bad, good, async (b, g) => {
        answer = b
        expect(await codeOf(c.signMessage('hello'))).toBe('WALLET_ERROR')
        answer = g
        expect(await c.signMessage('hello')).toBe(g)
      }),
      { numRuns: 60 },
    )
    // A 5 MB "signature" too.
    answer = `0x${'ab'.repeat(2_500_000)}`
    expect(await codeOf(c.signMessage('hello'))).toBe('WALLET_ERROR')
  })

  it('behavior: a transaction hash that is not 32 bytes of hex is WALLET_ERROR; the next send works', async () => {
    const wallet = await createEip1193TestWallet({
      rpcUrl: backend.anvil.rpcUrl,
      privateKeys: [ANVIL_KEY_1],
    })
    let answer: (() => unknown) | null = null
    const connector = answeringWallet(wallet, 'eth_sendTransaction', (args) =>
      answer ? answer() : wallet.request(args),
    )
    const c = client(connector)
    await c.connect()
    const bad = fc.oneof(
      fc.constant('garbage'),
      fc.constant(`0x${'ab'.repeat(31)}`),
      fc.constant(`0x${'ab'.repeat(33)}`),
      fc.string({ minLength: 32, maxLength: 70 }),
      fc.anything().filter((v) => typeof v !== 'string'),
    )
    await fc.assert(
      fc.asyncProperty(bad, async (b) => {
        answer = () => b
        expect(await codeOf(c.sendTransaction({ to: RECIPIENT, value: 1n }))).toBe('WALLET_ERROR')
      }),
      { numRuns: 30 },
    )
    answer = null
    const hash = (await c.sendTransaction({ to: RECIPIENT, value: 1n })).hash as Hex
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
  })
})
