export { createMemoryKeyring, type RelayKeyring } from './keyring'
export {
  SESSION_MESSAGE_TAGS,
  SESSION_MESSAGE_TTL_SECONDS,
  tagOf,
  ttlOf,
} from './message-tags'
export {
  createRelayPeer,
  type IncomingRequest,
  type PeerRequestOptions,
  type RelayPeer,
  type RelayPeerOptions,
} from './relay-peer'
export { appErrorOfResponse, responseErrorOf } from './response-error'
