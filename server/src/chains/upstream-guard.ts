import { UpstreamTooLargeError } from './types'

/** Requests in flight to one chain's node at once (HTTP); more wait in line. */
export const DEFAULT_UPSTREAM_CONCURRENCY = 8
/**
 * Bytes of one upstream answer. The largest a balance read needs is a wallet's token accounts on
 * Solana (~600 bytes each, jsonParsed): 4 MiB holds ~7,000 of them, where an attack pulled 51 MB.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024
/**
 * An answer that did not fit is not asked again for this long: viem's transport retries a failed
 * request once, and the same request within a block would not fit either.
 */
const TOO_LARGE_MEMORY_MS = 2_000

export interface UpstreamGuardOptions {
  /** Default `DEFAULT_UPSTREAM_CONCURRENCY` (8). */
  concurrency?: number
  /** Default `DEFAULT_MAX_RESPONSE_BYTES` (4 MiB). */
  maxResponseBytes?: number
  fetch?: typeof fetch
  now?: () => number
}

/**
 * One chain's upstream HTTP, bounded: at most `concurrency` requests in flight (a FIFO line for
 * the rest; a request whose signal aborts while waiting leaves the line without being sent), and
 * each answer read within its slot up to `maxResponseBytes`, past which the request is cut and
 * rejects with `UpstreamTooLargeError`. Every balance read of the chain (single, batch, block
 * number) goes through it, so 20 batches cannot open 900 connections to one node.
 */
export function guardUpstream(options: UpstreamGuardOptions = {}): typeof fetch {
  const concurrency = options.concurrency ?? DEFAULT_UPSTREAM_CONCURRENCY
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) {
    throw new Error(`upstream concurrency must be an integer >= 1, got ${concurrency}`)
  }
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
    throw new Error(`upstream maxResponseBytes must be an integer >= 1, got ${maxBytes}`)
  }
  const doFetch = options.fetch ?? globalThis.fetch
  const now = options.now ?? Date.now
  const line: (() => void)[] = []
  let inFlight = 0
  const tooLarge = new Map<string, { error: UpstreamTooLargeError; until: number }>()

  const acquire = (signal: AbortSignal | null | undefined): Promise<void> => {
    if (inFlight < concurrency) {
      inFlight++
      return Promise.resolve()
    }
    return new Promise<void>((resolve, reject) => {
      const take = () => {
        signal?.removeEventListener('abort', leave)
        inFlight++
        resolve()
      }
      const leave = () => {
        const at = line.indexOf(take)
        if (at >= 0) line.splice(at, 1)
        reject(signal?.reason ?? new Error('aborted'))
      }
      if (signal?.aborted) return leave()
      signal?.addEventListener('abort', leave, { once: true })
      line.push(take)
    })
  }
  const release = () => {
    inFlight--
    line.shift()?.()
  }

  return async (input, init) => {
    const key = typeof init?.body === 'string' ? `${String(input)} ${init.body}` : undefined
    const known = key === undefined ? undefined : tooLarge.get(key)
    if (known && known.until > now()) throw known.error
    await acquire(init?.signal)
    try {
      const response = await doFetch(input, init)
      const body = await readCapped(response, maxBytes)
      const headers = new Headers(response.headers)
      headers.delete('content-length')
      headers.delete('content-encoding')
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers,
      })
    } catch (error) {
      if (error instanceof UpstreamTooLargeError && key !== undefined) {
        for (const [at, entry] of tooLarge) if (entry.until <= now()) tooLarge.delete(at)
        tooLarge.set(key, { error, until: now() + TOO_LARGE_MEMORY_MS })
      }
      throw error
    } finally {
      release()
    }
  }
}

/** The body, read chunk by chunk; past `maxBytes` the rest is cancelled, not downloaded. */
async function readCapped(response: Response, maxBytes: number): Promise<ArrayBuffer> {
  const tooLarge = () =>
    new UpstreamTooLargeError(
      `the node's answer is larger than ${maxBytes} bytes (maxResponseBytes); not read`,
    )
  const declared = Number(response.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {})
    throw tooLarge()
  }
  if (!response.body) {
    const whole = await response.arrayBuffer()
    if (whole.byteLength > maxBytes) throw tooLarge()
    return whole
  }
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel().catch(() => {})
      throw tooLarge()
    }
    chunks.push(value)
  }
  const body = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    body.set(chunk, offset)
    offset += chunk.byteLength
  }
  return body.buffer
}
