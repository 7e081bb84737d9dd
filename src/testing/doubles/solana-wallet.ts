import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64 } from '@scure/base'
import type { Wallet, WalletAccount } from '@wallet-standard/base'
import { checkArgument } from '../arguments'
import type { WalletAnswer } from './answers'
import {
  createPromptGate,
  type PromptGate,
  type RecordedRequest,
  type WalletBehaviour,
} from './prompts'
import { type SolanaKeypair, signSerializedTransaction } from './solana-transaction'

const SOLANA_CHAINS = ['solana:mainnet', 'solana:devnet', 'solana:testnet'] as const

/**
 * Public keys by secret key (base64), derived once: deriving is the costly part (about 5 ms each),
 * and a property test builds a wallet on the same keys for each of its thousands of runs.
 */
const publicKeys = /* @__PURE__ */ new Map<string, Uint8Array>()

function keypair(secretKey: Uint8Array): SolanaKeypair {
  const id = base64.encode(secretKey)
  const publicKey = publicKeys.get(id) ?? ed25519.getPublicKey(secretKey)
  publicKeys.set(id, publicKey)
  return { secretKey, publicKey, address: base58.encode(publicKey) }
}

/**
 * A TEST DOUBLE of a Wallet Standard Solana wallet: real ed25519 keys (@noble), scripted answers.
 * `standard:connect`, `solana:signMessage` and `solana:signTransaction` are prompts the script
 * answers; `standard:disconnect` and the accounts are answered at once.
 */
export interface ScriptedSolanaWallet {
  /** Register it with `getWallets().register(wallet)`. */
  readonly wallet: Wallet
  /** How the wallet answers prompts from now on (`hold`: they wait for `release`). */
  answer: WalletAnswer | 'hold'
  next(behaviour: WalletBehaviour): void
  release(answer: WalletAnswer): boolean
  readonly held: number
  readonly requests: RecordedRequest[]
  /** The active account's address (base58). */
  readonly address: string
  readonly signatures: string[]
  act(what: 'changeAccount' | 'changeChain' | 'lock'): void
  /** A legacy serialized transaction (base64) that the active account must sign. */
  transaction(): string
}

export interface ScriptedSolanaWalletOptions {
  /** The chains it reports; default mainnet, devnet, testnet. */
  chains?: readonly `${string}:${string}`[]
}

/**
 * A scripted Wallet Standard Solana wallet double named `name` on `secretKeys`; see `createTestWallet`.
 *
 * @throws AppError `INVALID_CONFIG` when `name` is not a string, `secretKeys` not 32-byte
 * `Uint8Array`s, or `options.chains` not a non-empty list of CAIP-2 ids.
 */
export function createScriptedSolanaWallet(
  name: string,
  secretKeys: readonly Uint8Array[],
  options: ScriptedSolanaWalletOptions = {},
): ScriptedSolanaWallet {
  checkArgument('string', name, 'createScriptedSolanaWallet name')
  checkArgument('solanaKeys', secretKeys, 'createScriptedSolanaWallet secretKeys')
  checkArgument('solanaOptions', options, 'createScriptedSolanaWallet options')
  const chains = options.chains ?? SOLANA_CHAINS
  const keys = secretKeys.map(keypair)
  const signatures: string[] = []
  let connected = false
  const listeners = new Set<(properties: { accounts?: readonly WalletAccount[] }) => void>()
  const toAccount = (key: SolanaKeypair): WalletAccount => ({
    address: key.address,
    publicKey: key.publicKey,
    chains,
    features: ['solana:signMessage', 'solana:signTransaction'],
  })
  const accounts = () => (connected ? keys.map(toAccount) : [])
  const emitChange = () => {
    for (const listener of [...listeners]) listener({ accounts: accounts() })
  }
  const keyOf = (account: WalletAccount): SolanaKeypair => {
    const key = connected ? keys.find((k) => k.address === account.address) : undefined
    if (!key) throw Object.assign(new Error('test double: account not connected'), { code: 4100 })
    return key
  }
  const act: ScriptedSolanaWallet['act'] = (what) => {
    if (what === 'changeAccount') keys.push(keys.shift() as SolanaKeypair)
    if (what === 'lock') connected = false
    // A Solana wallet has no chain event: a chain change shows as a `change` of its accounts.
    emitChange()
  }
  const gate: PromptGate = createPromptGate({
    fail: (code, message) => Object.assign(new Error(message), { code }),
    act,
  })
  const features = {
    'standard:connect': {
      version: '1.0.0',
      connect: () =>
        gate.prompt('standard:connect', [], () => {
          connected = true
          return { accounts: accounts() }
        }),
    },
    'standard:disconnect': {
      version: '1.0.0',
      disconnect: () =>
        gate.passive('standard:disconnect', [], () => {
          connected = false
        }),
    },
    'standard:events': {
      version: '1.0.0',
      on(_event: string, listener: (properties: { accounts?: readonly WalletAccount[] }) => void) {
        listeners.add(listener)
        return () => listeners.delete(listener)
      },
    },
    'solana:signMessage': {
      version: '1.1.0',
      signMessage: (...inputs: { account: WalletAccount; message: Uint8Array }[]) =>
        gate.prompt('solana:signMessage', inputs, () =>
          inputs.map(({ account, message }) => {
            const signature = ed25519.sign(message, keyOf(account).secretKey)
            signatures.push(base58.encode(signature))
            return { signedMessage: message, signature }
          }),
        ),
    },
    'solana:signTransaction': {
      version: '1.0.0',
      supportedTransactionVersions: ['legacy', 0],
      signTransaction: (...inputs: { account: WalletAccount; transaction: Uint8Array }[]) =>
        gate.prompt('solana:signTransaction', inputs, () =>
          inputs.map(({ account, transaction }) => {
            const signed = signSerializedTransaction(transaction, keyOf(account))
            signatures.push(base58.encode(signed.subarray(1, 65)))
            return { signedTransaction: signed }
          }),
        ),
    },
  }
  const wallet: Wallet = {
    version: '1.0.0',
    name,
    icon: 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=',
    chains,
    features: features as unknown as Wallet['features'],
    get accounts() {
      return accounts()
    },
  }
  return {
    wallet,
    get answer() {
      return gate.answer
    },
    set answer(value) {
      gate.answer = value
    },
    next: (behaviour) => gate.next(behaviour),
    release: (answer) => gate.release(answer),
    get held() {
      return gate.held
    },
    requests: gate.requests,
    get address() {
      return (keys[0] as SolanaKeypair).address
    },
    signatures,
    act,
    transaction() {
      // One signature slot, header [1 signer, 0, 0], one account key (the signer), a blockhash, no instruction.
      const signer = (keys[0] as SolanaKeypair).publicKey
      const bytes = new Uint8Array(1 + 64 + 3 + 1 + 32 + 32 + 1)
      bytes[0] = 1
      bytes.set([1, 0, 0, 1], 65)
      bytes.set(signer, 69)
      bytes.fill(7, 101, 133)
      return base64.encode(bytes)
    },
  }
}
