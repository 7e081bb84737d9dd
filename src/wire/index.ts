/**
 * `scope-connect/wire`: the backend's wire shapes, written once with zod/mini. The server imports this
 * module, so client and server cannot disagree on a shape.
 */
export { buildSignedMessageEnvelope, SIGNATURE_TIMESTAMP_TOLERANCE_MS } from './envelope'
export {
  BACKEND_ERROR_STATUS,
  type BackendErrorCode,
  type ErrorBody,
  ErrorBodySchema,
  FieldIssueSchema,
} from './errors'
export { describeIssue, issuesToFieldIssues } from './issues'
export { CAIP2_PATTERN, SESSION_ID_PATTERN } from './patterns'
export {
  AddressSchema,
  Caip2Schema,
  DecimalStringSchema,
  DecimalsSchema,
  EpochMsSchema,
  SessionIdSchema,
  SignatureSchema,
  WalletSlugSchema,
} from './primitives'
export {
  RELAY_CLOSE_CODES,
  RELAY_ERROR_CODES,
  RELAY_HEARTBEAT_MS,
  RELAY_LIMITS,
  RELAY_METHODS,
  RELAY_TOPIC_PATTERN,
  RELAY_TTL_SECONDS,
  type RelayErrorCode,
  type RelayFetchResult,
  type RelayMessage,
  type RelayMethod,
  type RelayPublishParams,
  type RelaySubscriptionParams,
} from './relay'
export {
  API_PREFIX,
  APP_KEY_HEADER,
  LONG_POLL_MAX_HEADER,
  LONG_POLL_MAX_MS,
  ROUTES,
  SESSION_NONCE_HEADER,
} from './routes'
export {
  BalanceQuerySchema,
  type BalanceQueryWire,
  type BalanceResponse,
  BalanceResponseSchema,
  type ConfigResponse,
  ConfigResponseSchema,
  type ConnectCallback,
  ConnectCallbackSchema,
  type CreateSessionRequest,
  CreateSessionRequestSchema,
  type CreateSessionResponse,
  CreateSessionResponseSchema,
  NamespaceSchema,
  type NetworkEntry,
  NetworkEntrySchema,
  type RejectCallback,
  RejectCallbackSchema,
  type RelayTokenResponse,
  RelayTokenResponseSchema,
  SESSION_INTENTS,
  SESSION_STATUSES,
  type SessionIntent,
  SessionIntentSchema,
  type SessionResult,
  type SessionResultResponse,
  SessionResultResponseSchema,
  SessionResultSchema,
  type SessionStatus,
  SessionStatusSchema,
  type SignCallback,
  SignCallbackSchema,
  type TransactionCallback,
  TransactionCallbackSchema,
  type VerifyRequest,
  VerifyRequestSchema,
  type WalletEntry,
  WalletEntrySchema,
} from './schemas'
