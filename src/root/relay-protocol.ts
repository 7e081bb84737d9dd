export {
  type PeerMetadata,
  SESSION_ERROR_CODES,
  SESSION_METHODS,
  WALLET_REQUEST_METHODS,
  type WalletRequest,
} from '../relay/protocol'
