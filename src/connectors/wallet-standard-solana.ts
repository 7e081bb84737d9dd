import { getWallets } from '@wallet-standard/app'
import type { Wallet, WalletAccount } from '@wallet-standard/base'
import { AppError } from '../errors'
import type { SolanaWalletHandle } from './solana-wallet-handle'

/*
 * The few Wallet Standard feature shapes this connector uses, declared here rather than pulling in
 * @wallet-standard/features and @solana/wallet-standard-features for six method signatures.
 */

/** `standard:connect` */
export interface StandardConnectFeature {
  readonly version: string
  connect(input?: { silent?: boolean }): Promise<{ readonly accounts: readonly WalletAccount[] }>
}

/** `standard:disconnect` */
export interface StandardDisconnectFeature {
  readonly version: string
  disconnect(): Promise<void>
}

/** `standard:events` */
export interface StandardEventsFeature {
  readonly version: string
  on(
    event: 'change',
    listener: (properties: { readonly accounts?: readonly WalletAccount[] }) => void,
  ): () => void
}

/** `solana:signMessage` */
export interface SolanaSignMessageFeature {
  readonly version: string
  signMessage(
    ...inputs: { account: WalletAccount; message: Uint8Array }[]
  ): Promise<readonly { signedMessage: Uint8Array; signature: Uint8Array }[]>
}

/** `solana:signTransaction` */
export interface SolanaSignTransactionFeature {
  readonly version: string
  readonly supportedTransactionVersions: readonly ('legacy' | number)[]
  signTransaction(
    ...inputs: { account: WalletAccount; transaction: Uint8Array; chain?: string }[]
  ): Promise<readonly { signedTransaction: Uint8Array }[]>
}

/** `solana:signAndSendTransaction` */
export interface SolanaSignAndSendTransactionFeature {
  readonly version: string
  readonly supportedTransactionVersions: readonly ('legacy' | number)[]
  signAndSendTransaction(
    ...inputs: { account: WalletAccount; transaction: Uint8Array; chain: string }[]
  ): Promise<readonly { signature: Uint8Array }[]>
}

interface SolanaFeatures {
  'standard:connect'?: StandardConnectFeature
  'standard:disconnect'?: StandardDisconnectFeature
  'standard:events'?: StandardEventsFeature
  'solana:signMessage'?: SolanaSignMessageFeature
  'solana:signTransaction'?: SolanaSignTransactionFeature
  'solana:signAndSendTransaction'?: SolanaSignAndSendTransactionFeature
}

/** CAIP-2 Solana clusters and the chain names the Wallet Standard uses for them. */
const WALLET_STANDARD_CHAINS: Readonly<Record<string, string>> = {
  'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': 'solana:mainnet',
  'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1': 'solana:devnet',
  'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z': 'solana:testnet',
}

/** The Wallet Standard chain name for a CAIP-2 Solana chain; unknown ids pass through unchanged. */
export function toWalletStandardSolanaChain(chainId: string): string {
  return WALLET_STANDARD_CHAINS[chainId] ?? chainId
}

/**
 * The first registered Wallet Standard wallet that can connect on Solana, optionally by its name
 * (case-insensitive). Safe during SSR: the registry is then simply empty.
 * @throws AppError `INVALID_CONFIG` when `name` is given and not a string.
 */
export function findSolanaStandardWallet(name?: string): Wallet | undefined {
  if (name !== undefined && typeof name !== 'string') {
    throw new AppError('INVALID_CONFIG', 'Invalid argument: name must be a string.', {
      details: [{ field: 'name', reason: 'must be a string' }],
    })
  }
  return solanaStandardWallet(name)
}

/**
 * `findSolanaStandardWallet` without the argument check, for the modal's wallet list (its chunk
 * then holds no `AppError`, which the QR code's chunk would import from it).
 */
export function solanaStandardWallet(name?: string): Wallet | undefined {
  const wanted = name?.toLowerCase()
  return getWallets()
    .get()
    .find(
      (wallet) =>
        'standard:connect' in wallet.features &&
        wallet.chains.some((chain) => chain.startsWith('solana:')) &&
        (wanted === undefined || wallet.name.toLowerCase() === wanted),
    )
}

/** Adapts a Wallet Standard wallet to the connector. */
export function standardWalletHandle(wallet: Wallet): SolanaWalletHandle {
  const features = wallet.features as SolanaFeatures
  let accounts: readonly WalletAccount[] = []
  const account = (address: string): WalletAccount => {
    const found = accounts.find((item) => item.address === address)
    if (!found) throw new AppError('NOT_CONNECTED', `Account ${address} is not connected.`)
    return found
  }
  const feature = <K extends keyof SolanaFeatures>(name: K): NonNullable<SolanaFeatures[K]> => {
    const value = features[name]
    if (!value) throw new AppError('WALLET_UNAVAILABLE', `${wallet.name} does not support ${name}.`)
    return value as NonNullable<SolanaFeatures[K]>
  }
  return {
    async connect(options) {
      const result = await feature('standard:connect').connect(
        options?.silent ? { silent: true } : undefined,
      )
      accounts = solanaAccounts(result.accounts)
      return accounts.map((item) => item.address)
    },
    async disconnect() {
      accounts = []
      await features['standard:disconnect']?.disconnect()
    },
    async signMessage(address, message) {
      const [output] = await feature('solana:signMessage').signMessage({
        account: account(address),
        message,
      })
      if (!output) throw new AppError('WALLET_ERROR', `${wallet.name} returned no signature.`)
      return output.signature
    },
    async signTransaction(address, transaction, chain) {
      const [output] = await feature('solana:signTransaction').signTransaction({
        account: account(address),
        transaction,
        chain,
      })
      if (!output) throw new AppError('WALLET_ERROR', `${wallet.name} returned no transaction.`)
      return output.signedTransaction
    },
    async signAndSendTransaction(address, transaction, chain) {
      const [output] = await feature('solana:signAndSendTransaction').signAndSendTransaction({
        account: account(address),
        transaction,
        chain,
      })
      if (!output) throw new AppError('WALLET_ERROR', `${wallet.name} returned no signature.`)
      return output.signature
    },
    watch(listener) {
      const events = features['standard:events']
      if (!events) return () => {}
      return events.on('change', (properties) => {
        if (!properties.accounts) return
        accounts = solanaAccounts(properties.accounts)
        // The Wallet Standard reports a disconnect as an empty account list.
        listener(accounts.length === 0 ? null : accounts.map((item) => item.address))
      })
    },
  }
}

function solanaAccounts(accounts: readonly WalletAccount[]): readonly WalletAccount[] {
  return accounts.filter(
    (item) => item.chains.length === 0 || item.chains.some((chain) => chain.startsWith('solana:')),
  )
}
