import * as z from 'zod/mini'
import { Caip2Schema } from '../wire/primitives'
import { SignInMessageSchema } from '../wire/sign-in-message'

/**
 * `client.signIn`'s parameters, all optional: the site (`domain`, `uri`: in a page, default
 * `location.host` and `location.origin`), the `statement` the wallet shows, the message's times
 * (RFC 3339 strings; `expirationTime` default 10 minutes after `issuedAt`), `requestId`,
 * `resources`, and `chainId` (CAIP-2, default the connection's).
 */
export const SignInParametersSchema = /* @__PURE__ */ (() => {
  const fields = SignInMessageSchema.shape
  return z.object({
    domain: z.optional(fields.domain),
    uri: z.optional(fields.uri),
    statement: fields.statement,
    expirationTime: fields.expirationTime,
    notBefore: fields.notBefore,
    requestId: fields.requestId,
    resources: fields.resources,
    chainId: z.optional(Caip2Schema),
  })
})()

/** The parameters of `client.signIn()` (see `SignInParametersSchema`). */
export type SignInParameters = z.input<typeof SignInParametersSchema>

/** `SignInParameters` once checked. */
export type SignInCheckedParameters = z.output<typeof SignInParametersSchema>
