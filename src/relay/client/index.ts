export {
  createRelayClient,
  type PublishOptions,
  type RelayClient,
  type RelayClientOptions,
} from '../face/relay-client'
export { DEFAULT_RELAY_BACKOFF, type RelayBackoff, reconnectDelay } from './backoff'
export { relayMessageId } from './dedupe'
export type { RelayStatus, RelayStatusChange } from './status'
export {
  baseUrlForRelayUrl,
  createRelayTokenSource,
  type RelayTokenSourceOptions,
  relayUrlForBaseUrl,
} from './token-source'
export { WEBSOCKET_OPEN, type WebSocketConstructor, type WebSocketLike } from './websocket'
