import { walletsById, walletsByRdns } from './indexes'
import { partnerById } from './partners'
import type { WalletId } from './types'

/**
 * The built-in wallet behind a connector id, or `undefined` when the connector is not tied to one.
 *
 * - `eip6963:{rdns}` maps by the wallet's EIP-6963 reverse-DNS name (exact match).
 * - `solana:{walletId}` maps to that wallet when it exists and supports Solana.
 * - An id equal to a wallet id (e.g. a universal-link connector's) is returned as it is.
 * - `injected`, `relay` and anything else give `undefined`. Never throws, whatever it is given.
 */
export function walletIdForConnectorId(connectorId: string): WalletId | undefined {
  if (typeof connectorId !== 'string') return undefined
  if (walletsById.has(connectorId) || partnerById(connectorId)) return connectorId
  const colon = connectorId.indexOf(':')
  if (colon < 0) return undefined
  const kind = connectorId.slice(0, colon)
  const rest = connectorId.slice(colon + 1)
  if (kind === 'eip6963') return walletsByRdns.get(rest)?.id
  if (kind === 'solana') {
    const wallet = walletsById.get(rest) ?? partnerById(rest)
    return wallet?.namespaces.includes('solana') ? wallet.id : undefined
  }
  return undefined
}
