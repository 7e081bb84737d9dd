/** The relay token. */
import * as z from 'zod/mini'
import { EpochMsSchema } from '../primitives'

export const RelayTokenResponseSchema = /* @__PURE__ */ z.object({
  token: /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.minLength(16)),
  expiresAt: EpochMsSchema,
})
export type RelayTokenResponse = z.infer<typeof RelayTokenResponseSchema>
