/**
 * Every code the library throws. The first five are the source document's (version 0.1.0); the rest
 * name failures that 0.1.0 folded into them and that callers asked to tell apart.
 */
export type AppErrorCode =
  /** Missing baseUrl or appKey, no fetch, malformed pairing URI, a link that is not absolute HTTPS. */
  | 'INVALID_CONFIG'
  /** Chain not supported by the backend, or an unknown chain in a lookup. */
  | 'UNSUPPORTED_CHAIN'
  /** Transport failure, abnormal status or invalid body on the balance and config calls. */
  | 'RPC_ERROR'
  /** Unknown wallet in a lookup. */
  | 'WALLET_NOT_FOUND'
  /** The generic session client's request failed or the backend answered non-2xx (429 included). */
  | 'BACKEND_ERROR'
  /** The user rejected the request in the wallet (EIP-1193 code 4001, or the wallet's reject callback). */
  | 'USER_REJECTED'
  /** The wallet, its provider or its optional SDK is not present in this environment. */
  | 'WALLET_UNAVAILABLE'
  /** The wallet answered a request with an error other than a user rejection. */
  | 'WALLET_ERROR'
  /** An operation that needs a connected wallet was called without one. */
  | 'NOT_CONNECTED'
  /** The backend session expired, or a flow passed its deadline or attempt cap. */
  | 'SESSION_EXPIRED'
  /** The backend session reached `failed`, or the wallet reported a failure. */
  | 'SESSION_FAILED'
  /** Waiting for something (an EIP-6963 announcement, a relay peer) took longer than allowed. */
  | 'TIMEOUT'
  /** The caller cancelled the flow. */
  | 'ABORTED'
  /** The relay refused the connection, or a relay message could not be opened. */
  | 'RELAY_ERROR'
  /** The transaction was mined and failed (its receipt's status); the reason when the node gives one. */
  | 'TRANSACTION_REVERTED'
  /** Another transaction of the same sender and nonce was mined instead (a speed-up or a cancel in the wallet). */
  | 'TRANSACTION_REPLACED'
  /** The node dropped the transaction, or never showed it. */
  | 'TRANSACTION_DROPPED'
  /**
   * The wallet is answering another request of this client (a signature, a chain switch, a
   * transaction): one wallet request at a time. Nothing was sent; call again once the view's
   * `isBusy` is false.
   */
  | 'WALLET_BUSY'
  /** The wallet's account changed while it was asked for a signature: the signature is not returned. */
  | 'ACCOUNT_CHANGED'
  /**
   * The connection cannot carry this method (EIP-1193 `4200 Unsupported Method`): e.g. anything
   * but `solana_signMessage` / `solana_signTransaction` over a universal link. Nothing was sent.
   */
  | 'UNSUPPORTED_METHOD'

/** A field-level reason, as the backend sends them on 422. */
export interface FieldIssue {
  field: string
  reason: string
}

export interface AppErrorOptions {
  cause?: unknown
  /** HTTP status, when the error came from a backend answer. */
  status?: number
  /** The backend's own error code (`error.code` of the body), e.g. `RATE_LIMITED`. */
  backendCode?: string
  /** Parsed from `Retry-After`, in milliseconds. */
  retryAfterMs?: number
  /** The backend's field-level reasons (`error.details`). */
  details?: readonly FieldIssue[]
}

/**
 * The library's normalized error. Test for it first (`isAppError`), then for a raw provider error
 * (`isProviderRpcError`). `shortMessage` is the one-line reason; `message` adds the field details.
 */
export class AppError extends Error {
  override readonly name = 'AppError' as const
  readonly code: AppErrorCode
  readonly shortMessage: string
  declare readonly status?: number
  declare readonly backendCode?: string
  declare readonly retryAfterMs?: number
  declare readonly details?: readonly FieldIssue[]

  /**
   * Never throws: a message or details that cannot be text (a Symbol, a null-prototype object,
   * details that are not an array of `{ field, reason }`) give the message as text and no options.
   */
  constructor(code: AppErrorCode, shortMessage: string, options: AppErrorOptions = {}) {
    let message: string
    try {
      message = [
        shortMessage,
        ...(options.details?.map((d) => `- ${d.field}: ${d.reason}`) ?? []),
      ].join('\n')
    } catch {
      options = {}
      try {
        message = shortMessage = String(shortMessage)
      } catch {
        message = shortMessage = ''
      }
    }
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.shortMessage = shortMessage
    if (options.status !== undefined) this.status = options.status
    if (options.backendCode !== undefined) this.backendCode = options.backendCode
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs
    if (options.details !== undefined) this.details = options.details
  }
}

/**
 * Whether a value of type `T` may be an `AppError`: `unknown`, `any`, `Error`, `{}` or a union with
 * an error in it. A type that can never be one (the plain `ErrorData` of a machine's context, a
 * string) is a mistake `isAppError` refuses to compile: its answer would always be false.
 */
export type MayBeAppError<T> = 0 extends 1 & T
  ? true
  : [Extract<T, Error>] extends [never]
    ? Error extends T
      ? true
      : false
    : true

/**
 * True for an `AppError`, optionally of one code. Works across bundle copies (checks the name).
 * The value's type must be one that can be an `AppError` (`unknown` from a `catch`, `view.error`,
 * `Error | null`…): a type that never is one does not compile (see `MayBeAppError`).
 */
export function isAppError<T>(
  value: T,
  ...code: MayBeAppError<T> extends true ? [code?: AppErrorCode] : [neverAnAppError: never]
): value is T & AppError
export function isAppError(value: unknown, code?: AppErrorCode): value is AppError {
  if (!(value instanceof Error) || value.name !== 'AppError') return false
  return code === undefined || (value as AppError).code === code
}
