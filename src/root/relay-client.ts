export {
  createRelayClient,
  createRelayTokenSource,
  type PublishOptions,
  type RelayClient,
  type RelayClientOptions,
  type RelayStatus,
  type RelayStatusChange,
  relayUrlForBaseUrl,
  type WebSocketConstructor,
  type WebSocketLike,
} from '../relay/client'
