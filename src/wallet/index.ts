/**
 * `scope-connect/wallet`: the wallet provider's side of relay pairing. See docs/wallet.md.
 */

export { AppError, type AppErrorCode, isAppError } from '../errors/app-error'
export { ProviderRpcError, USER_REJECTED_CODE } from '../errors/provider-rpc-error'
export { createRelayTokenSource } from '../relay/client/token-source'
export type { WebSocketConstructor, WebSocketLike } from '../relay/client/websocket'
export { parsePairingUri } from '../relay/parse-pairing-uri'
export {
  SESSION_ERROR_CODES,
  WALLET_REQUEST_METHODS,
} from '../relay/protocol/methods'
export type { PeerMetadata, WalletRequest } from '../relay/protocol/schemas'
export type {
  CaipNamespaces,
  ParsedPairingUri,
  RelayTokenGrant,
  SettledNamespaces,
} from '../relay/types'
export { createRelayWallet, type RelayWallet } from './relay-wallet'
export type {
  RelayWalletOptions,
  SessionProposal,
  WalletRequestHandler,
  WalletSession,
  WalletSessionRequest,
} from './types'
