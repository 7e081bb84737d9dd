export {
  type JsonRpcError,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type JsonRpcResponse,
  parseJsonRpc,
  payloadId,
  payloadTime,
} from './json-rpc'
export {
  SESSION_DELETE_CODES,
  SESSION_ERROR_CODES,
  SESSION_METHODS,
  type SessionMethod,
  WALLET_REQUEST_METHODS,
  type WalletRequestMethod,
} from './methods'
export {
  createReplayGuard,
  REPLAY_WINDOW_MS,
  type ReplayGuard,
  type ReplayVerdict,
} from './replay-guard'
export * from './schemas'
