import * as z from 'zod/mini'

/**
 * JSON-RPC 2.0 as it travels inside envelopes. Ids are integers: milliseconds since the epoch × 1000
 * plus three random digits, so the receiver can tell an old message from a fresh one (replay window).
 */

const ID = /* @__PURE__ */ z.int().check(/* @__PURE__ */ z.gte(0))

export const JsonRpcRequestSchema = /* @__PURE__ */ z.object({
  jsonrpc: /* @__PURE__ */ z.literal('2.0'),
  id: ID,
  method: /* @__PURE__ */ z
    .string()
    .check(/* @__PURE__ */ z.minLength(1), /* @__PURE__ */ z.maxLength(64)),
  params: /* @__PURE__ */ z.unknown(),
})
export type JsonRpcRequest = z.infer<typeof JsonRpcRequestSchema>

export const JsonRpcErrorSchema = /* @__PURE__ */ z.object({
  code: /* @__PURE__ */ z.int(),
  message: /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.maxLength(1024)),
})
export type JsonRpcError = z.infer<typeof JsonRpcErrorSchema>

export const JsonRpcResultSchema = /* @__PURE__ */ z.object({
  jsonrpc: /* @__PURE__ */ z.literal('2.0'),
  id: ID,
  result: /* @__PURE__ */ z.unknown(),
})
export const JsonRpcErrorResponseSchema = /* @__PURE__ */ z.object({
  jsonrpc: /* @__PURE__ */ z.literal('2.0'),
  id: ID,
  error: JsonRpcErrorSchema,
})

export type JsonRpcResponse =
  | z.infer<typeof JsonRpcResultSchema>
  | z.infer<typeof JsonRpcErrorResponseSchema>

export type JsonRpcMessage =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'response'; message: JsonRpcResponse }

/** Reads a decrypted payload: a request, a response, or `null` for anything else. Never throws. */
export function parseJsonRpc(text: string): JsonRpcMessage | null {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return null
  }
  if (typeof value !== 'object' || value === null) return null
  if ('method' in value) {
    const request = JsonRpcRequestSchema.safeParse(value)
    return request.success ? { kind: 'request', message: request.data } : null
  }
  if ('error' in value) {
    const failure = JsonRpcErrorResponseSchema.safeParse(value)
    return failure.success ? { kind: 'response', message: failure.data } : null
  }
  const result = JsonRpcResultSchema.safeParse(value)
  return result.success && 'result' in value ? { kind: 'response', message: result.data } : null
}

/** A new request id: `now × 1000 + r`, r ∈ [0, 999] (unique per sender per millisecond in practice). */
export function payloadId(now: number, random: number): number {
  return Math.floor(now) * 1000 + Math.min(999, Math.max(0, Math.floor(random * 1000)))
}

/** The sending time encoded in a payload id (ms since the epoch). */
export function payloadTime(id: number): number {
  return Math.floor(id / 1000)
}
