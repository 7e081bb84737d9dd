import { BACKEND_ERROR_STATUS, type BackendErrorCode, type ErrorBody } from 'scope-connect/wire'

export interface FieldReason {
  field: string
  reason: string
}

/** A refusal the routes raise on purpose; the error handler turns it into the wire error body. */
export class ApiError extends Error {
  override readonly name = 'ApiError'
  readonly status: number
  readonly details?: FieldReason[]
  readonly headers?: Record<string, string>

  constructor(
    readonly code: BackendErrorCode,
    message: string,
    options: { details?: FieldReason[]; headers?: Record<string, string> } = {},
  ) {
    super(message)
    this.status = BACKEND_ERROR_STATUS[code]
    // `details` only on 422 and only when there is a field-level reason (SPEC 3).
    if (this.status === 422 && options.details && options.details.length > 0) {
      this.details = options.details
    }
    if (options.headers) this.headers = options.headers
  }

  toBody(): ErrorBody {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details ? { details: this.details } : {}),
      },
    }
  }
}

/** A 422 VALIDATION_FAILED naming one field. */
export function fieldError(field: string, reason: string): ApiError {
  return new ApiError('VALIDATION_FAILED', `${field} ${reason}`, { details: [{ field, reason }] })
}
