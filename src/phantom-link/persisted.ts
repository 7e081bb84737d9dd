import * as z from 'zod/mini'

/** The `format` tag of the Phantom-link record. */
export const PHANTOM_LINK_STATE_FORMAT = 'scope-connect/phantom-link'

/** The version of the record's shape; a record of another version is discarded. */
export const PHANTOM_LINK_STATE_VERSION = 1

const errorData = z.object({ code: z.string(), message: z.string() })
const method = z.enum(['connect', 'signMessage', 'signAndSendTransaction'])

/** What the flow needs back after the navigation: its state and context, nothing else. */
const contextSchema = z.object({
  walletId: z.string(),
  chainId: z.string(),
  dappPublicKey: z.nullable(z.string()),
  dappSecretKey: z.nullable(z.string()),
  walletEncryptionKey: z.nullable(z.string()),
  session: z.nullable(z.string()),
  account: z.nullable(z.string()),
  request: z.nullable(
    z.object({ flow: z.string(), method, deadline: z.number().check(z.int(), z.minimum(0)) }),
  ),
  seenNonces: z.array(z.string()).check(z.maxLength(32)),
  last: z.nullable(
    z.object({
      flow: z.string(),
      method,
      signature: z.nullable(z.string()),
      error: z.nullable(errorData),
    }),
  ),
})

const recordSchema = z.object({
  format: z.literal(PHANTOM_LINK_STATE_FORMAT),
  version: z.literal(PHANTOM_LINK_STATE_VERSION),
  savedAt: z.number(),
  /**
   * The chart's persisted snapshot (`getPersistedSnapshot()`): its state (only resumable ones are
   * kept) and context checked field by field; the rest (the deadline child) as XState wrote it.
   */
  snapshot: z.looseObject({
    status: z.literal('active'),
    value: z.enum(['awaitingConnect', 'connected', 'awaitingSignature']),
    context: contextSchema,
  }),
})

/**
 * The Phantom-link flow as kept across the navigation to the wallet and back (versioned). Its
 * `context.dappSecretKey` is the dApp's x25519 secret: never copy the record to logs or analytics.
 */
export type PhantomLinkPersistedState = z.infer<typeof recordSchema>

/** Validates a stored value (already JSON-parsed): the record, or null. Never throws. */
export function parsePhantomLinkState(value: unknown): PhantomLinkPersistedState | null {
  const parsed = recordSchema.safeParse(value)
  return parsed.success ? parsed.data : null
}
