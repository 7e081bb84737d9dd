import * as z from 'zod/mini'

/**
 * The values a restored root needs, by schema (issue 27, "What to build" 5): a stored record whose
 * keys fit the machine can still carry values no flow can run on (`timeouts: null`, `pending:
 * "bogus"`, a 6 MB or `javascript:` `walletUrl`). `checkRestorableRecord` runs these on the
 * persisted snapshot (plain JSON, before anything is restored) and discards a record that fails,
 * with the reason. Read from the persisted JSON only: no XState internals.
 */

/**
 * The schema a `Client` writes its universal-link record under (the envelope's `fingerprint`):
 * `linkRecordProblem`'s schemas plus the root in `link` with the `universalLink` child. Bump the
 * version (and give apps a migration from the old one: `universalLink.migrations`, keyed by it) when
 * what the flow needs changes;
 * a chart change elsewhere leaves it, so stored flows survive the upgrade.
 */
export const LINK_RECORD_SCHEMA = 'client.link@1'
/** The schema of a `UniversalLinkConnector`'s own record (`universalLinkRecordProblem`). */
export const UNIVERSAL_LINK_RECORD_SCHEMA = 'universal-link@1'
/** The schema of a `Client`'s paired relay session (`rootRecordProblem`, the root in `relay`). */
export const RELAY_RECORD_SCHEMA = 'client.relay@1'

/** Longest id, address, chain id or nonce a record may hold. */
const MAX_ID = 256
/** Longest link (a wallet URL carries a session id, a nonce, a callback and a payload). */
export const MAX_WALLET_URL = 16 * 1024
/** Longest transaction payload (base64url) of a signing request. */
const MAX_PAYLOAD = 256 * 1024

const id = z.string().check(z.minLength(1), z.maxLength(MAX_ID))
const text = z.string().check(z.maxLength(4096))
const count = z.int().check(z.gte(0))
const time = z.number().check(z.gte(0), z.refine(Number.isFinite))
const ms = z.number().check(z.gt(0), z.refine(Number.isFinite))

const errorData = z.object({
  code: id,
  message: text,
  status: z.optional(z.number()),
  backendCode: z.optional(text),
  retryAfterMs: z.optional(z.number()),
})

const connection = z.object({
  walletId: z.nullable(id),
  connectorId: id,
  namespace: z.enum(['eip155', 'solana']),
  chainId: id,
  accounts: z.array(id).check(z.maxLength(64)),
})

const pollInterval = z.nullable(z.union([ms, z.tuple([ms, ms])]))

const FLOW_KINDS = [
  'select',
  'connect',
  'reconnect',
  'switchChain',
  'pair',
  'sign',
  'disconnect',
  'transaction',
] as const

const rootContext = z.object({
  timeouts: z.object({
    connectorLoadMs: ms,
    discoveryMs: ms,
    walletAnswerMs: ms,
    signatureMs: ms,
    reconnectMs: ms,
  }),
  walletId: z.nullable(id),
  namespace: z.nullable(z.enum(['eip155', 'solana'])),
  selectedConnectorId: z.nullable(id),
  connector: z.nullable(
    z.object({
      kind: z.enum(['wallet', 'universal-link', 'relay']),
      connectorId: id,
      walletId: z.nullable(id),
      chainId: z.nullable(id),
      pollIntervalMs: z.optional(pollInterval),
    }),
  ),
  connection: z.nullable(connection),
  error: z.nullable(errorData),
  flow: count,
  pending: z.nullable(z.enum(FLOW_KINDS)),
  outcome: z.nullable(
    z.object({
      flow: count,
      kind: z.enum(FLOW_KINDS),
      error: z.nullable(errorData),
      signature: z.nullable(z.string().check(z.maxLength(MAX_PAYLOAD))),
    }),
  ),
  sign: z.nullable(
    z.object({
      request: z.object({ method: id }),
      link: z.object({
        method: z.enum(['signMessage', 'signTransaction']),
        payload: z.nullable(z.string().check(z.maxLength(MAX_PAYLOAD))),
      }),
    }),
  ),
  walletUrl: z.nullable(z.string().check(z.maxLength(MAX_WALLET_URL))),
  relay: z.nullable(z.object({})),
  deadline: z.nullable(z.object({ flow: count, at: time })),
  projectChains: z.nullable(z.array(id)),
  linkPolls: z.nullable(z.object({ failed: count, last: text })),
  relayDown: z.nullable(text),
})

const linkContext = z.object({
  walletId: id,
  chainId: id,
  session: z.nullable(z.object({ sessionId: id, nonce: id, expiresAt: time })),
  walletAddress: z.nullable(id),
  connection: z.nullable(connection),
  request: z.nullable(
    z.object({
      method: z.enum(['signMessage', 'signTransaction']),
      payload: z.nullable(z.string().check(z.maxLength(MAX_PAYLOAD))),
    }),
  ),
  signature: z.nullable(z.string().check(z.maxLength(MAX_PAYLOAD))),
  txSignature: z.nullable(z.string().check(z.maxLength(MAX_PAYLOAD))),
  signatures: count,
  error: z.nullable(errorData),
  pollIntervalMs: pollInterval,
})

/** The universal-link flow's `poll` child (the session-polling machine): its clock and counters. */
const pollContext = z.looseObject({
  session: z.nullable(z.looseObject({ sessionId: z.optional(id) })),
  startedAt: time,
  deadline: time,
  clock: time,
  attempts: count,
  maxAttempts: count,
  failures: count,
  interval: z.tuple([z.number().check(z.gte(0)), z.number().check(z.gte(0))]),
  nextDelayMs: z.number().check(z.gte(0), z.refine(Number.isFinite)),
})

/** A persisted actor as the root's `children` keep it: `{ snapshot, src, … }`. */
const persistedChild = z.looseObject({
  snapshot: z.looseObject({
    context: z.unknown(),
    children: z.optional(z.record(z.string(), z.unknown())),
  }),
})

/** The first issue of a failed parse, as `path: message`. */
function issue(error: z.core.$ZodError): string {
  const first = error.issues[0]
  return first ? `${first.path.join('.') || '(root)'}: ${first.message}` : 'invalid'
}

/**
 * Whether `url` may be opened as the wallet's link: `https:`, or the scheme of a link the wallet
 * registered (`schemes`, e.g. `solflare:`); never `javascript:`, `data:` or the like.
 */
export function isWalletUrl(url: string, schemes: readonly string[]): boolean {
  let protocol: string
  try {
    protocol = new URL(url).protocol
  } catch {
    return false
  }
  return protocol === 'https:' || schemes.includes(protocol)
}

/** What the universal-link record is checked against: the wallet's registered link schemes. */
export interface LinkValueOptions {
  /** The schemes (`https:` always allowed) the wallet `walletId` registered for its links. */
  walletSchemes(walletId: string): readonly string[]
}

/**
 * Checks the values of a persisted root snapshot of the universal-link flow: the root's context,
 * the `universalLink` child's, and the root's `walletUrl` (https or the wallet's registered
 * scheme). The reason the record is discarded, or null when it may be restored.
 */
export function linkRecordProblem(snapshot: unknown, options: LinkValueOptions): string | null {
  const root = z.looseObject({
    context: rootContext,
    children: z.record(z.string(), persistedChild),
  })
  const parsed = root.safeParse(snapshot)
  if (!parsed.success) return `the stored root context is invalid (${issue(parsed.error)})`
  const { context, children } = parsed.data
  const link = children.universalLink
  if (link) {
    const problem = universalLinkRecordProblem(link.snapshot)
    if (problem !== null) return problem
  }
  const walletId = context.walletId ?? context.connector?.walletId ?? null
  if (
    context.walletUrl !== null &&
    !isWalletUrl(context.walletUrl, walletId ? options.walletSchemes(walletId) : [])
  )
    return 'the stored wallet link is neither https nor the wallet’s registered scheme'
  return null
}

/**
 * Checks a persisted universal-link machine snapshot (a `UniversalLinkConnector`'s record, or the
 * `universalLink` child of a `Client`'s): its context and its `poll` child's. The reason the record
 * is discarded, or null.
 */
export function universalLinkRecordProblem(snapshot: unknown): string | null {
  const parsed = persistedChild.shape.snapshot.safeParse(snapshot)
  if (!parsed.success)
    return `the stored universal-link snapshot is invalid (${issue(parsed.error)})`
  const linkParsed = linkContext.safeParse(parsed.data.context)
  if (!linkParsed.success)
    return `the stored universal-link context is invalid (${issue(linkParsed.error)})`
  const poll = parsed.data.children?.poll
  if (poll !== undefined) {
    const pollChild = persistedChild.safeParse(poll)
    const pollParsed = pollContext.safeParse(
      pollChild.success ? pollChild.data.snapshot.context : null,
    )
    if (!pollParsed.success)
      return `the stored session-polling context is invalid (${issue(pollParsed.error)})`
  }
  return null
}

/** Checks the root context of a persisted paired root (the relay flow). */
export function rootRecordProblem(snapshot: unknown): string | null {
  const parsed = z.looseObject({ context: rootContext }).safeParse(snapshot)
  if (!parsed.success) return `the stored root context is invalid (${issue(parsed.error)})`
  if (parsed.data.context.walletUrl !== null && !isWalletUrl(parsed.data.context.walletUrl, []))
    return 'the stored wallet link is not https'
  return null
}
