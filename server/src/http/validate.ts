import { issuesToFieldIssues } from 'scope-connect/wire'
import type * as z from 'zod/mini'
import { ApiError } from '../errors'

/**
 * Parses a request part with a wire schema (the same schema the client uses), so a mismatch is a
 * 422 with one reason per field instead of Fastify's own validator speaking another dialect.
 */
export function parseWith<S extends z.ZodMiniType>(schema: S, value: unknown, what: string) {
  const result = schema.safeParse(value)
  if (result.success) return result.data as z.infer<S>
  throw new ApiError('VALIDATION_FAILED', `the ${what} is invalid`, {
    details: issuesToFieldIssues(result.error.issues, value),
  })
}
