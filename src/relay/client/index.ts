export { DEFAULT_RELAY_BACKOFF, type RelayBackoff, reconnectDelay } from './backoff'
export {
  createRelayClient,
  type PublishOptions,
  type RelayClient,
  type RelayClientOptions,
  type RelayStatus,
  type RelayStatusChange,
  relayMessageId,
} from './relay-client'
export {
  baseUrlForRelayUrl,
  createRelayTokenSource,
  type RelayTokenSourceOptions,
  relayUrlForBaseUrl,
} from './token-source'
export { WEBSOCKET_OPEN, type WebSocketConstructor, type WebSocketLike } from './websocket'
