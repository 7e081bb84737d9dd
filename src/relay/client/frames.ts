import * as z from 'zod/mini'
import { RELAY_TOPIC_PATTERN, type RelayMessage, type RelayMethod } from '../../wire/relay'

const RelayMessageSchema = /* @__PURE__ */ z.object({
  topic: /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.regex(RELAY_TOPIC_PATTERN)),
  message: /* @__PURE__ */ z.string(),
  messageId: /* @__PURE__ */ z.string(),
  publishedAt: /* @__PURE__ */ z.number(),
  tag: /* @__PURE__ */ z.int(),
})
const SubscriptionPushSchema = /* @__PURE__ */ z.object({
  jsonrpc: /* @__PURE__ */ z.literal('2.0'),
  id: /* @__PURE__ */ z.union([/* @__PURE__ */ z.int(), /* @__PURE__ */ z.string()]),
  method: /* @__PURE__ */ z.literal('scr_subscription' satisfies RelayMethod),
  params: /* @__PURE__ */ z.object({ id: /* @__PURE__ */ z.string(), data: RelayMessageSchema }),
})
const ResponseSchema = /* @__PURE__ */ z.object({
  jsonrpc: /* @__PURE__ */ z.literal('2.0'),
  id: /* @__PURE__ */ z.int(),
  result: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.unknown()),
  error: /* @__PURE__ */ z.optional(
    /* @__PURE__ */ z.object({
      code: /* @__PURE__ */ z.int(),
      message: /* @__PURE__ */ z.string(),
    }),
  ),
})
const FetchResultSchema = /* @__PURE__ */ z.object({
  messages: /* @__PURE__ */ z.array(RelayMessageSchema),
  hasMore: /* @__PURE__ */ z.boolean(),
})

/** A JSON-RPC answer of the relay to one of the client's requests. */
export type RelayResponse = z.infer<typeof ResponseSchema>

/** A frame the relay sent, once parsed: a push of a subscribed topic's message, or an answer. */
export type RelayFrame =
  | { kind: 'push'; id: number | string; data: RelayMessage }
  | { kind: 'response'; response: RelayResponse }

/** Parses a text frame; `null` for anything that is not JSON of a known shape (never throws). */
export function parseRelayFrame(raw: unknown): RelayFrame | null {
  if (typeof raw !== 'string') return null
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    return null
  }
  const push = SubscriptionPushSchema.safeParse(value)
  if (push.success) return { kind: 'push', id: push.data.id, data: push.data.params.data }
  const response = ResponseSchema.safeParse(value)
  return response.success ? { kind: 'response', response: response.data } : null
}

/** The result of `scr_fetchMessages`, or `null` when it does not validate. */
export function parseFetchResult(
  value: unknown,
): { messages: RelayMessage[]; hasMore: boolean } | null {
  const result = FetchResultSchema.safeParse(value)
  return result.success ? result.data : null
}
