import type { Caip2ChainId, ChainNamespace } from '../registry/types'

/** The `format` tag of a stored connection. */
export const CONNECTION_STORE_FORMAT = 'scope-connect/connection'

/** The version of the record's shape. */
export const CONNECTION_STORE_FORMAT_VERSION = 1

/**
 * The last desktop connection, as the `Client` keeps it for a silent reconnect after a reload:
 * which connector, which wallet, the active account and its chain. No secret: the wallet keeps the
 * authorization; the reconnect asks it (`eth_accounts`, a silent Wallet Standard connect).
 */
export interface StoredConnection {
  format: typeof CONNECTION_STORE_FORMAT
  formatVersion: typeof CONNECTION_STORE_FORMAT_VERSION
  /** The connector's id: `injected`, `eip6963:io.metamask`, `solana:phantom`, or a custom one. */
  connectorId: string
  /** The wallet (`metamask`), or null for the plain injected provider. */
  walletId: string | null
  namespace: ChainNamespace
  chainId: Caip2ChainId
  /** The active account when it was saved. */
  account: string
}

/** Where the `Client` keeps the last desktop connection (`ClientOptions.connectionStore`). */
export interface ConnectionStore {
  /** Replaces the stored connection. Must not throw. */
  save(connection: StoredConnection): void
  /** The stored connection, or `null` when there is none (or it is unusable). Must not throw. */
  load(): StoredConnection | null
  /** Forgets the stored connection. Must not throw. */
  clear(): void
}

const isText = (value: unknown): value is string => typeof value === 'string' && value !== ''

/**
 * Validates a stored value (already JSON-parsed): `null` for anything that is not a record of this
 * format and version — a CAIP-2 chain of its namespace, an account of that namespace (an EVM
 * address, a base58 key). Never throws; unknown keys are dropped. (Hand-written rather than a
 * schema: it ships in the `Client` entry.)
 */
export function parseStoredConnection(value: unknown): StoredConnection | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null
  const { format, formatVersion, connectorId, walletId, namespace, chainId, account } =
    value as Record<string, unknown>
  const valid =
    format === CONNECTION_STORE_FORMAT &&
    formatVersion === CONNECTION_STORE_FORMAT_VERSION &&
    isText(connectorId) &&
    (walletId === null || isText(walletId)) &&
    (namespace === 'eip155' || namespace === 'solana') &&
    isText(chainId) &&
    /^(eip155|solana):[-_a-zA-Z0-9]{1,32}$/.test(chainId) &&
    chainId.startsWith(`${namespace}:`) &&
    isText(account) &&
    (namespace === 'eip155'
      ? /^0x[0-9a-fA-F]{40}$/.test(account)
      : /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(account)) &&
    connectorId.length <= 256 &&
    (walletId === null || walletId.length <= 256)
  return valid
    ? {
        format,
        formatVersion,
        connectorId,
        walletId,
        namespace,
        chainId: chainId as Caip2ChainId,
        account,
      }
    : null
}
