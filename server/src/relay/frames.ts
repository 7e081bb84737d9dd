import {
  RELAY_ERROR_CODES,
  RELAY_LIMITS,
  RELAY_TOPIC_PATTERN,
  type RelayErrorCode,
} from 'scope-connect/wire'

/** A refusal of one request: answered as a JSON-RPC error, the socket stays open. */
export class RelayRpcError extends Error {
  override readonly name = 'RelayRpcError'
  constructor(
    readonly code: RelayErrorCode,
    message: string,
  ) {
    super(message)
  }
}

/** One client frame, classified. */
export type ClientFrame =
  | { kind: 'request'; id: number; method: string; params: unknown }
  /** The client's answer to one of our `scr_subscription` pushes; `ok` when the result is `true`. */
  | { kind: 'response'; id: number; ok: boolean }
  | { kind: 'invalid'; id: number | null; error: RelayRpcError }

const isId = (value: unknown): value is number => Number.isSafeInteger(value)

/** JSON-RPC 2.0 over one text frame: a request with an integer id, or a response to a push. */
export function parseFrame(text: string): ClientFrame {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return invalid(null, RELAY_ERROR_CODES.PARSE_ERROR, 'the frame is not JSON')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return invalid(null, RELAY_ERROR_CODES.INVALID_REQUEST, 'a frame is one JSON-RPC object')
  }
  const frame = value as Record<string, unknown>
  const id = isId(frame.id) ? frame.id : null
  if (frame.jsonrpc !== '2.0') {
    return invalid(id, RELAY_ERROR_CODES.INVALID_REQUEST, 'jsonrpc must be "2.0"')
  }
  if (frame.method === undefined && id !== null && ('result' in frame || 'error' in frame)) {
    return { kind: 'response', id, ok: frame.result === true }
  }
  if (typeof frame.method !== 'string') {
    return invalid(id, RELAY_ERROR_CODES.INVALID_REQUEST, 'method must be a string')
  }
  if (id === null) {
    return invalid(null, RELAY_ERROR_CODES.INVALID_REQUEST, 'id must be an integer')
  }
  return { kind: 'request', id, method: frame.method, params: frame.params }
}

const invalid = (id: number | null, code: RelayErrorCode, message: string): ClientFrame => ({
  kind: 'invalid',
  id,
  error: new RelayRpcError(code, message),
})

export const resultFrame = (id: number, result: unknown): string =>
  result === true
    ? `{"jsonrpc":"2.0","id":${id},"result":true}`
    : JSON.stringify({ jsonrpc: '2.0', id, result })

export const errorFrame = (id: number | null, error: RelayRpcError): string =>
  JSON.stringify({ jsonrpc: '2.0', id, error: { code: error.code, message: error.message } })

const invalidParams = (message: string) =>
  new RelayRpcError(RELAY_ERROR_CODES.INVALID_PARAMS, message)

function paramsObject(params: unknown): Record<string, unknown> {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    throw invalidParams('params must be an object')
  }
  return params as Record<string, unknown>
}

/** `{ topic }`: 64 lower-case hex digits. */
export function topicOf(params: unknown): string {
  const { topic } = paramsObject(params)
  if (typeof topic !== 'string' || !RELAY_TOPIC_PATTERN.test(topic)) {
    throw invalidParams('topic must be 64 lower-case hex digits')
  }
  return topic
}

export function unsubscribeParams(params: unknown): { topic: string; id: string } {
  const topic = topicOf(params)
  const { id } = params as Record<string, unknown>
  if (typeof id !== 'string' || id === '') throw invalidParams('id must be a subscription id')
  return { topic, id }
}

// Standard base64 with padding: what the envelope is (SPEC 5).
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

export interface PublishParams {
  topic: string
  message: string
  ttl: number
  tag: number
}

/** `{ topic, message, ttl, tag }`. The size check comes before the base64 check (cheaper refusal). */
export function publishParams(params: unknown, maxMessageBytes: number): PublishParams {
  const topic = topicOf(params)
  const { message, ttl, tag } = params as Record<string, unknown>
  if (typeof message !== 'string' || message === '') {
    throw invalidParams('message must be a non-empty base64 string')
  }
  if (message.length > maxMessageBytes) {
    throw new RelayRpcError(
      RELAY_ERROR_CODES.MESSAGE_TOO_LARGE,
      `message is ${message.length} bytes; at most ${maxMessageBytes}`,
    )
  }
  if (!BASE64.test(message)) throw invalidParams('message must be base64 (with padding)')
  if (
    !Number.isSafeInteger(ttl) ||
    (ttl as number) < RELAY_LIMITS.minTtlSeconds ||
    (ttl as number) > RELAY_LIMITS.maxTtlSeconds
  ) {
    throw invalidParams(
      `ttl must be an integer number of seconds, ${RELAY_LIMITS.minTtlSeconds}..${RELAY_LIMITS.maxTtlSeconds}`,
    )
  }
  if (!Number.isSafeInteger(tag)) throw invalidParams('tag must be an integer')
  return { topic, message, ttl: ttl as number, tag: tag as number }
}
