import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import type { Wallet, WalletAccount, WalletIcon } from '@wallet-standard/base'
import type {
  SolanaSignAndSendTransactionFeature,
  SolanaSignMessageFeature,
  SolanaSignTransactionFeature,
  StandardConnectFeature,
  StandardDisconnectFeature,
  StandardEventsFeature,
} from '../../src/connectors/wallet-standard-solana'
import { signSerializedTransaction } from '../../src/testing/doubles/solana-transaction'
import { broadcastSolanaTransaction } from './solana-cluster'

const ICON: WalletIcon =
  'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4='
const SOLANA_CHAINS = ['solana:mainnet', 'solana:devnet', 'solana:testnet'] as const

/** A rejection as Phantom throws it: an `Error` with code 4001. */
export function userRejectedError(): Error & { code: number } {
  return Object.assign(new Error('User rejected the request.'), { code: 4001 })
}

interface Keypair {
  secretKey: Uint8Array
  publicKey: Uint8Array
  address: string
}

function keypair(): Keypair {
  const { secretKey, publicKey } = ed25519.keygen()
  return { secretKey, publicKey, address: base58.encode(publicKey) }
}

export { signSerializedTransaction } from '../../src/testing/doubles/solana-transaction'

export interface TestSolanaWalletOptions {
  /** The name registered with the Wallet Standard; default `Test Wallet`. */
  name?: string
  /** Features to leave out, e.g. `['solana:signTransaction']`. */
  without?: string[]
  /**
   * The cluster's JSON-RPC URL `solana:signAndSendTransaction` broadcasts to (`sendTransaction`);
   * without one that feature fails as a wallet with no connection would.
   */
  rpcUrl?: string
}

export interface TestSolanaWallet {
  /** Register it with `getWallets().register(wallet)`. */
  readonly wallet: Wallet
  /** The active key pair (a real ed25519 key). */
  readonly key: Keypair
  /** The Wallet Standard chain of the last signTransaction or signAndSendTransaction call. */
  readonly lastChain: string | undefined
  /** The next wallet call fails with `error` (default: a 4001 user rejection). */
  rejectNext(error?: unknown): void
  /** The user adds a fresh account and makes it active; emits `change`. */
  switchToNewAccount(): Keypair
  /** The user disconnects the dApp in the wallet UI; emits `change` with no accounts. */
  disconnectFromWallet(): void
  /** `standard:events` listeners currently registered. */
  listenerCount(): number
  /** Calls to `standard:disconnect`. */
  readonly disconnectCalls: number
}

/** A Wallet Standard Solana wallet that signs with real ed25519 keys. */
export function createTestSolanaWallet(options: TestSolanaWalletOptions = {}): TestSolanaWallet {
  let keys = [keypair()]
  let connected = false
  let failure: unknown
  let lastChain: string | undefined
  let disconnectCalls = 0
  const listeners = new Set<(properties: { accounts?: readonly WalletAccount[] }) => void>()

  const toAccount = (key: Keypair): WalletAccount => ({
    address: key.address,
    publicKey: key.publicKey,
    chains: SOLANA_CHAINS,
    features: ['solana:signMessage', 'solana:signTransaction', 'solana:signAndSendTransaction'],
  })
  const accounts = () => (connected ? keys.map(toAccount) : [])
  const emitChange = () => {
    for (const listener of [...listeners]) listener({ accounts: accounts() })
  }
  const guard = () => {
    if (failure === undefined) return
    const error = failure
    failure = undefined
    throw error
  }
  const keyOf = (account: WalletAccount): Keypair => {
    const key = connected ? keys.find((item) => item.address === account.address) : undefined
    if (!key) throw new Error('test wallet: unknown account')
    return key
  }

  const connect: StandardConnectFeature = {
    version: '1.0.0',
    async connect(input) {
      guard()
      // Silent: no prompt; the accounts only if this site is still connected (trusted).
      if (!input?.silent) connected = true
      return { accounts: accounts() }
    },
  }
  const disconnect: StandardDisconnectFeature = {
    version: '1.0.0',
    async disconnect() {
      disconnectCalls++
      connected = false
    },
  }
  const events: StandardEventsFeature = {
    version: '1.0.0',
    on(_event, listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
  const signMessage: SolanaSignMessageFeature = {
    version: '1.1.0',
    async signMessage(...inputs) {
      guard()
      return inputs.map(({ account, message }) => ({
        signedMessage: message,
        signature: ed25519.sign(message, keyOf(account).secretKey),
      }))
    },
  }
  const signTransaction: SolanaSignTransactionFeature = {
    version: '1.0.0',
    supportedTransactionVersions: ['legacy', 0],
    async signTransaction(...inputs) {
      guard()
      return inputs.map(({ account, transaction, chain }) => {
        lastChain = chain
        return { signedTransaction: signSerializedTransaction(transaction, keyOf(account)) }
      })
    },
  }
  const broadcast = async (signed: Uint8Array): Promise<Uint8Array> => {
    if (!options.rpcUrl) throw new Error('test wallet: no cluster to send to')
    return base58.decode(await broadcastSolanaTransaction(options.rpcUrl, signed))
  }
  const signAndSendTransaction: SolanaSignAndSendTransactionFeature = {
    version: '1.0.0',
    supportedTransactionVersions: ['legacy', 0],
    async signAndSendTransaction(...inputs) {
      guard()
      const outputs = []
      for (const { account, transaction, chain } of inputs) {
        lastChain = chain
        const signed = signSerializedTransaction(transaction, keyOf(account))
        outputs.push({ signature: await broadcast(signed) })
      }
      return outputs
    },
  }
  const all: Record<string, unknown> = {
    'standard:connect': connect,
    'standard:disconnect': disconnect,
    'standard:events': events,
    'solana:signMessage': signMessage,
    'solana:signTransaction': signTransaction,
    'solana:signAndSendTransaction': signAndSendTransaction,
  }
  const features = Object.fromEntries(
    Object.entries(all).filter(([name]) => !options.without?.includes(name)),
  ) as Wallet['features']

  const wallet: Wallet = {
    version: '1.0.0',
    name: options.name ?? 'Test Wallet',
    icon: ICON,
    chains: SOLANA_CHAINS,
    features,
    get accounts() {
      return accounts()
    },
  }

  return {
    wallet,
    get key() {
      return keys[0]!
    },
    get lastChain() {
      return lastChain
    },
    get disconnectCalls() {
      return disconnectCalls
    },
    rejectNext(error = userRejectedError()) {
      failure = error
    },
    switchToNewAccount() {
      const key = keypair()
      keys = [key, ...keys]
      emitChange()
      return key
    },
    disconnectFromWallet() {
      connected = false
      emitChange()
    },
    listenerCount: () => listeners.size,
  }
}

export interface TestLegacySolanaProvider {
  publicKey: { toBase58(): string } | null
  connect(): Promise<{ publicKey: { toBase58(): string } }>
  disconnect(): Promise<void>
  signMessage(message: Uint8Array, display?: 'utf8'): Promise<{ signature: Uint8Array }>
  on(event: string, listener: (...args: never[]) => void): void
  off(event: string, listener: (...args: never[]) => void): void
  /** Test controls. */
  readonly key: Keypair
  emit(event: string, ...args: unknown[]): void
  listenerCount(): number
}

/** A pre-Wallet-Standard provider, shaped like `window.phantom.solana`, with a real ed25519 key. */
export function createLegacySolanaProvider(): TestLegacySolanaProvider {
  const key = keypair()
  const listeners = new Map<string, Set<(...args: never[]) => void>>()
  const publicKey = { toBase58: () => key.address }
  const provider: TestLegacySolanaProvider = {
    publicKey: null,
    key,
    async connect() {
      provider.publicKey = publicKey
      return { publicKey }
    },
    async disconnect() {
      provider.publicKey = null
    },
    async signMessage(message) {
      if (!provider.publicKey) throw new Error('not connected')
      return { signature: ed25519.sign(message, key.secretKey) }
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set()
      set.add(listener)
      listeners.set(event, set)
    },
    off(event, listener) {
      listeners.get(event)?.delete(listener)
    },
    emit(event, ...args) {
      for (const listener of [...(listeners.get(event) ?? [])]) {
        ;(listener as (...values: unknown[]) => void)(...args)
      }
    },
    listenerCount: () => [...listeners.values()].reduce((total, set) => total + set.size, 0),
  }
  return provider
}
