import * as z from 'zod/mini'

// The kinds of `GenericWalletSessionClient`'s parameters, checked before a request is built: a
// wrong kind is `INVALID_CONFIG` naming the field, never a `TypeError`. The formats (a CAIP-2
// chain, a signature) stay the backend's to judge (422 `VALIDATION_FAILED`, `BACKEND_ERROR`).

const text = /* @__PURE__ */ z.string()
const id = /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.minLength(1))
const optionalText = /* @__PURE__ */ z.optional(text)

/** `createSession(caip2Chain, options?)`. */
export const CreateSessionParametersSchema = /* @__PURE__ */ z.tuple([
  text,
  /* @__PURE__ */ z.optional(
    /* @__PURE__ */ z.object({ walletSlug: optionalText, intent: optionalText }),
  ),
])

/** `getResult` / `watchResult` (`sessionId`, `sessionToken`, options?). */
export const ResultParametersSchema = /* @__PURE__ */ z.tuple([
  id,
  id,
  /* @__PURE__ */ z.optional(
    /* @__PURE__ */ z.object({
      etag: optionalText,
      waitMs: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.number()),
      signal: /* @__PURE__ */ z.optional(
        /* @__PURE__ */ z.custom<AbortSignal>(
          (v) => typeof v === 'object' && v !== null && 'aborted' in v,
        ),
      ),
    }),
  ),
])

const timestamp = /* @__PURE__ */ z.number()

/** `verify(sessionId, sessionToken, body)`. */
export const VerifyParametersSchema = /* @__PURE__ */ z.tuple([
  id,
  id,
  /* @__PURE__ */ z.object({ walletAddress: text, signature: text, timestamp }),
])

const callbackOptions = /* @__PURE__ */ z.optional(
  /* @__PURE__ */ z.object({ nonce: optionalText }),
)
const callback = <T extends z.core.$ZodLooseShape>(shape: T) =>
  z.tuple([z.object({ sessionId: id, ...shape }), callbackOptions])

/** The callbacks' `(body, options?)`, by method. */
export const CALLBACK_PARAMETERS = {
  postConnect: /* @__PURE__ */ callback({
    walletSlug: text,
    caip2Chain: text,
    walletAddress: text,
  }),
  postSignMsg: /* @__PURE__ */ callback({ signature: text, timestamp, publicKey: optionalText }),
  postTransaction: /* @__PURE__ */ callback({ txSignature: text }),
  postReject: /* @__PURE__ */ callback({ errorCode: text }),
}
