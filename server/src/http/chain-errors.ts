import { type ChainInputError, GasLimitExceededError } from '../chains/types'
import { ApiError } from '../errors'

const QUERY_FIELDS = ['account', 'tokenAddress', 'decimals'] as const

/** A reader's input error names its field first (`account is not…`); keep that as the 422 detail. */
export function chainInputToApiError(error: ChainInputError): ApiError {
  if (error instanceof GasLimitExceededError)
    return new ApiError('GAS_LIMIT_EXCEEDED', error.message)
  const field = QUERY_FIELDS.find((name) => error.message.startsWith(`${name} `))
  const reason = field ? error.message.slice(field.length + 1) : error.message
  return new ApiError('VALIDATION_FAILED', error.message, {
    details: [{ field: field ?? '(query)', reason }],
  })
}
