import { AppError } from '../errors'
import type { SolanaWalletHandle } from './solana-wallet-handle'

interface LegacyPublicKey {
  toBase58(): string
}

/**
 * The pre-Wallet-Standard Solana provider wallets put on `window` (`window.phantom.solana`,
 * `window.solana`, `window.solflare`, …).
 */
export interface LegacySolanaProvider {
  publicKey?: LegacyPublicKey | null
  connect(options?: {
    onlyIfTrusted?: boolean
  }): Promise<{ publicKey?: LegacyPublicKey } | undefined>
  disconnect?(): Promise<void>
  signMessage(message: Uint8Array, display?: 'utf8'): Promise<{ signature: Uint8Array }>
  on?(event: string, listener: (...args: never[]) => void): unknown
  off?(event: string, listener: (...args: never[]) => void): unknown
  removeListener?(event: string, listener: (...args: never[]) => void): unknown
}

/**
 * The legacy provider of `walletId` (`window[walletId].solana` or `window[walletId]`), or for no
 * wallet id or `phantom`
 * `window.phantom.solana` then `window.solana`. Undefined during SSR or when none is present.
 */
export function findLegacySolanaProvider(walletId?: string): LegacySolanaProvider | undefined {
  if (typeof window === 'undefined') return undefined
  const scope = window as unknown as Record<string, { solana?: unknown } | undefined>
  const candidates =
    walletId === undefined || walletId === 'phantom'
      ? [scope.phantom?.solana, scope.solana]
      : [scope[walletId]?.solana, scope[walletId]]
  return candidates.find(isLegacySolanaProvider)
}

/** Adapts a legacy provider to the connector. */
export function legacyProviderHandle(provider: LegacySolanaProvider): SolanaWalletHandle {
  return {
    async connect(options) {
      let result: { publicKey?: LegacyPublicKey } | undefined
      try {
        result = await provider.connect(options?.silent ? { onlyIfTrusted: true } : undefined)
      } catch (error) {
        // `onlyIfTrusted` rejects when the site is not trusted: for a silent connect, no account.
        if (options?.silent) return []
        throw error
      }
      const publicKey = result?.publicKey ?? provider.publicKey
      return publicKey ? [publicKey.toBase58()] : []
    },
    async disconnect() {
      await provider.disconnect?.()
    },
    async signMessage(_address, message) {
      const { signature } = await provider.signMessage(message, 'utf8')
      return signature
    },
    // Legacy providers sign @solana/web3.js Transaction objects, not bytes, and this library does
    // not depend on web3.js; every current wallet offers the Wallet Standard path instead.
    signTransaction: noSerializedTransactions,
    signAndSendTransaction: noSerializedTransactions,
    watch(listener) {
      const onAccountChanged = (publicKey: LegacyPublicKey | null) =>
        listener(publicKey ? [publicKey.toBase58()] : [])
      const onDisconnect = () => listener(null)
      provider.on?.('accountChanged', onAccountChanged)
      provider.on?.('disconnect', onDisconnect)
      return () => {
        const off = (provider.removeListener ?? provider.off)?.bind(provider)
        off?.('accountChanged', onAccountChanged)
        off?.('disconnect', onDisconnect)
      }
    },
  }
}

function noSerializedTransactions(): Promise<never> {
  return Promise.reject(
    new AppError(
      'WALLET_UNAVAILABLE',
      'The legacy window provider cannot sign serialized transactions; use a Wallet Standard wallet.',
    ),
  )
}

function isLegacySolanaProvider(value: unknown): value is LegacySolanaProvider {
  if (typeof value !== 'object' || value === null) return false
  const { connect, signMessage } = value as Record<string, unknown>
  return typeof connect === 'function' && typeof signMessage === 'function'
}
