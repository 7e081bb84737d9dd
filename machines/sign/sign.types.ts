import type { GenericSessionResult } from '../../src/session/types'
import type { ErrorData } from '../shared/error-data'

/**
 * A JSON value: what a sign request's params may hold, so the machine's context stays serialisable.
 */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | JsonValue[]
  | { [key: string]: JsonValue }

/** The wallet request to make, e.g. `{ method: 'personal_sign', params: [messageHex, address] }`. */
export interface SignRequest {
  method: string
  params: JsonValue[] | { [key: string]: JsonValue }
}

/** Asks for backend verification (POST `/sessions/{id}/verify`) after the wallet signed. */
export interface SignVerification {
  sessionId: string
  walletAddress: string
  /** The envelope's timestamp (ms). */
  timestamp: number
}

/**
 * Input of the sign machine: the request to sign and, optionally, the backend verification that
 * follows.
 */
export interface SignInput {
  request?: SignRequest
  /** Verify on the backend after signing (EVM `personal_sign` over the session envelope). */
  verify?: SignVerification | null
}

/**
 * The sign machine's context: the request, the verification asked for, the signature, the backend's
 * verification result and the last error.
 */
export interface SignContext {
  request: SignRequest | null
  verify: SignVerification | null
  signature: string | null
  /** The backend's session result after verification. */
  verification: GenericSessionResult | null
  error: ErrorData | null
}

/**
 * The events the sign machine takes: `SIGN` (with an optional request and verification), `RETRY`
 * and `RESET`.
 */
export type SignEvent =
  /** Start signing; the fields override the input. */
  | { type: 'SIGN'; request?: SignRequest; verify?: SignVerification | null }
  /** Sign again after a rejection or failure. */
  | { type: 'RETRY' }
  /** Back to idle (also gives up while the wallet is asked). */
  | { type: 'RESET' }

/** Input of the `verifySignature` actor. */
export interface VerifySignatureInput extends SignVerification {
  signature: string
}

/** What a signing ends with: the signature and, when verified, the backend's session result. */
export interface SignOutput {
  signature: string
  verification: GenericSessionResult | null
}
