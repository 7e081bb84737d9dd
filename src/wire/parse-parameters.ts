import * as z from 'zod/mini'
import { AppError } from '../errors/app-error'
import { issuesToFieldIssues } from './issues'

/**
 * `input` parsed by `schema`, or `INVALID_CONFIG` naming each field that is wrong (`details`, and
 * the first one in the one-line reason): the check every public method runs on its parameters
 * before anything is sent. `what` names the parameter (`sendTransaction parameters`, `message`).
 */
export function parseParameters<S extends z.ZodMiniType>(
  schema: S,
  input: unknown,
  what: string,
): z.output<S> {
  const result = z.safeParse(schema, input)
  if (result.success) return result.data
  const details = issuesToFieldIssues(result.error.issues, input).map((issue) => ({
    ...issue,
    field: issue.field === '(root)' ? what : `${what}.${issue.field}`,
  }))
  const first = details[0] as { field: string; reason: string }
  throw new AppError('INVALID_CONFIG', `Invalid ${first.field}: ${first.reason}.`, {
    details,
  })
}
