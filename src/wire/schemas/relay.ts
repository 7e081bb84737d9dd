/** The relay token. */
import * as z from 'zod/mini'
import { EpochMsSchema } from '../primitives'

/** The answer of POST `/relay/token`: a relay token and when it expires. */
export const RelayTokenResponseSchema = /* @__PURE__ */ z.object({
  token: /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.minLength(16)),
  expiresAt: EpochMsSchema,
})
/** The answer of POST `/relay/token` (`RelayTokenResponseSchema`). */
export type RelayTokenResponse = z.infer<typeof RelayTokenResponseSchema>
