import type { GenericSessionResult } from '../../src/session/types'
import type { ErrorData } from '../shared/error-data'

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

export interface SignInput {
  request?: SignRequest
  /** Verify on the backend after signing (EVM `personal_sign` over the session envelope). */
  verify?: SignVerification | null
}

export interface SignContext {
  request: SignRequest | null
  verify: SignVerification | null
  signature: string | null
  /** The backend's session result after verification. */
  verification: GenericSessionResult | null
  error: ErrorData | null
}

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

export interface SignOutput {
  signature: string
  verification: GenericSessionResult | null
}
