import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import type { Wallet, WalletAccount } from '@wallet-standard/base'
import { signSerializedTransaction } from '../../support/wallet-standard-wallet'
import { never, type WalletAnswer } from './answers'

const CHAINS = ['solana:mainnet', 'solana:devnet', 'solana:testnet'] as const

interface Keypair {
  secretKey: Uint8Array
  publicKey: Uint8Array
  address: string
}

function keypair(secretKey: Uint8Array): Keypair {
  const publicKey = ed25519.getPublicKey(secretKey)
  return { secretKey, publicKey, address: base58.encode(publicKey) }
}

/** A TEST DOUBLE of a Wallet Standard Solana wallet: real ed25519 keys, scripted answers. */
export interface ScriptedSolanaWallet {
  readonly wallet: Wallet
  answer: WalletAnswer
  readonly signatures: string[]
  act(what: 'changeAccount' | 'changeChain' | 'lock'): void
  /** A legacy serialized transaction (base64) that the active account must sign. */
  transaction(): string
}

export function createScriptedSolanaWallet(
  name: string,
  secretKeys: readonly Uint8Array[],
): ScriptedSolanaWallet {
  const keys = secretKeys.map(keypair)
  const signatures: string[] = []
  let connected = false
  const listeners = new Set<(properties: { accounts?: readonly WalletAccount[] }) => void>()
  const toAccount = (key: Keypair): WalletAccount => ({
    address: key.address,
    publicKey: key.publicKey,
    chains: CHAINS,
    features: ['solana:signMessage', 'solana:signTransaction'],
  })
  const accounts = () => (connected ? keys.map(toAccount) : [])
  const emitChange = () => {
    for (const listener of [...listeners]) listener({ accounts: accounts() })
  }
  const keyOf = (account: WalletAccount): Keypair => {
    const key = connected ? keys.find((k) => k.address === account.address) : undefined
    if (!key) throw Object.assign(new Error('test double: account not connected'), { code: 4100 })
    return key
  }
  const act: ScriptedSolanaWallet['act'] = (what) => {
    if (what === 'changeAccount') keys.push(keys.shift() as Keypair)
    if (what === 'lock') connected = false
    // A Solana wallet has no chain event: a chain change shows as a `change` of its accounts.
    emitChange()
  }
  const gate = async (): Promise<void> => {
    const answer = double.answer
    if (answer === 'hang') await never()
    if (answer === 'reject')
      throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
    if (answer === 'error') throw Object.assign(new Error('Wallet crashed.'), { code: -32603 })
    if (answer === 'lock') {
      act('lock')
      throw Object.assign(new Error('The wallet is locked.'), { code: 4100 })
    }
  }
  const after = () => {
    const answer = double.answer
    if (answer === 'changeAccount' || answer === 'changeChain') queueMicrotask(() => act(answer))
  }
  const features = {
    'standard:connect': {
      version: '1.0.0',
      async connect() {
        await gate()
        connected = true
        after()
        return { accounts: accounts() }
      },
    },
    'standard:disconnect': {
      version: '1.0.0',
      async disconnect() {
        connected = false
      },
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
      async signMessage(...inputs: { account: WalletAccount; message: Uint8Array }[]) {
        await gate()
        const out = inputs.map(({ account, message }) => {
          const signature = ed25519.sign(message, keyOf(account).secretKey)
          signatures.push(base58.encode(signature))
          return { signedMessage: message, signature }
        })
        after()
        return out
      },
    },
    'solana:signTransaction': {
      version: '1.0.0',
      supportedTransactionVersions: ['legacy', 0],
      async signTransaction(...inputs: { account: WalletAccount; transaction: Uint8Array }[]) {
        await gate()
        const out = inputs.map(({ account, transaction }) => {
          const signed = signSerializedTransaction(transaction, keyOf(account))
          signatures.push(base58.encode(signed.subarray(1, 65)))
          return { signedTransaction: signed }
        })
        after()
        return out
      },
    },
  }
  const wallet: Wallet = {
    version: '1.0.0',
    name,
    icon: 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=',
    chains: CHAINS,
    features: features as unknown as Wallet['features'],
    get accounts() {
      return accounts()
    },
  }
  const double: ScriptedSolanaWallet = {
    wallet,
    answer: 'approve',
    signatures,
    act,
    transaction() {
      // One signature slot, header [1 signer, 0, 0], one account key (the signer), a blockhash, no instruction.
      const signer = (keys[0] as Keypair).publicKey
      const bytes = new Uint8Array(1 + 64 + 3 + 1 + 32 + 32 + 1)
      bytes[0] = 1
      bytes.set([1, 0, 0, 1], 65)
      bytes.set(signer, 69)
      bytes.fill(7, 101, 133)
      return Buffer.from(bytes).toString('base64')
    },
  }
  return double
}
