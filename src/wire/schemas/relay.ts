/** The relay token. */
import * as z from 'zod/mini'
import { EpochMsSchema } from '../primitives'

export const RelayTokenResponseSchema = z.object({
  token: z.string().check(z.minLength(16)),
  expiresAt: EpochMsSchema,
})
export type RelayTokenResponse = z.infer<typeof RelayTokenResponseSchema>
