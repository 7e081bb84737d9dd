import * as z from 'zod/mini'

/** The `format` tag of the Phantom-link record. */
export const PHANTOM_LINK_STATE_FORMAT = 'scope-connect/phantom-link'

/** The version of the record's shape; a record of another version is discarded. */
export const PHANTOM_LINK_STATE_VERSION = 1

const errorData = /* @__PURE__ */ z.object({
  code: /* @__PURE__ */ z.string(),
  message: /* @__PURE__ */ z.string(),
})
const method = /* @__PURE__ */ z.enum(['connect', 'signMessage', 'signAndSendTransaction'])

/** What the flow needs back after the navigation: its state and context, nothing else. */
const contextSchema = /* @__PURE__ */ z.object({
  walletId: /* @__PURE__ */ z.string(),
  chainId: /* @__PURE__ */ z.string(),
  dappPublicKey: /* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string()),
  dappSecretKey: /* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string()),
  walletEncryptionKey: /* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string()),
  session: /* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string()),
  account: /* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string()),
  request: /* @__PURE__ */ z.nullable(
    /* @__PURE__ */ z.object({
      flow: /* @__PURE__ */ z.string(),
      method,
      deadline: /* @__PURE__ */ z
        .number()
        .check(/* @__PURE__ */ z.int(), /* @__PURE__ */ z.minimum(0)),
    }),
  ),
  seenNonces: /* @__PURE__ */ z
    .array(/* @__PURE__ */ z.string())
    .check(/* @__PURE__ */ z.maxLength(32)),
  last: /* @__PURE__ */ z.nullable(
    /* @__PURE__ */ z.object({
      flow: /* @__PURE__ */ z.string(),
      method,
      signature: /* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string()),
      error: /* @__PURE__ */ z.nullable(errorData),
    }),
  ),
})

const recordSchema = /* @__PURE__ */ z.object({
  format: /* @__PURE__ */ z.literal(PHANTOM_LINK_STATE_FORMAT),
  formatVersion: /* @__PURE__ */ z.literal(PHANTOM_LINK_STATE_VERSION),
  savedAt: /* @__PURE__ */ z.number(),
  /**
   * The chart's persisted snapshot (`getPersistedSnapshot()`): its state (only resumable ones are
   * kept) and context checked field by field; the rest (the deadline child) as XState wrote it.
   */
  snapshot: /* @__PURE__ */ z.looseObject({
    status: /* @__PURE__ */ z.literal('active'),
    value: /* @__PURE__ */ z.enum(['awaitingConnect', 'connected', 'awaitingSignature']),
    context: contextSchema,
  }),
})

/**
 * The Phantom-link flow as kept across the navigation to the wallet and back (versioned). Its
 * `context.dappSecretKey` is the dApp's x25519 secret: never copy the record to logs or analytics.
 */
export type PhantomLinkPersistedState = z.infer<typeof recordSchema>

/** A record of the first release names its version `version` (the other stores' `formatVersion`). */
function withFormatVersion(value: unknown): unknown {
  if (
    typeof value !== 'object' ||
    value === null ||
    !('version' in value) ||
    'formatVersion' in value
  )
    return value
  const { version, ...rest } = value as { version: unknown }
  return { ...rest, formatVersion: version }
}

/** Validates a stored value (already JSON-parsed): the record, or null. Never throws. */
export function parsePhantomLinkState(value: unknown): PhantomLinkPersistedState | null {
  const parsed = recordSchema.safeParse(withFormatVersion(value))
  return parsed.success ? parsed.data : null
}
