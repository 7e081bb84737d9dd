import { ChainInputError, UpstreamError } from './types'

/** Solana's JSON-RPC "invalid params" code: the request, not the node, is at fault. */
const INVALID_PARAMS = -32602

export type SolanaRpc = <T>(method: string, params: unknown[]) => Promise<T>

export interface SolanaRpcOptions {
  url: string
  timeoutMs: number
  fetch?: typeof fetch
}

interface RpcResponse {
  result?: unknown
  error?: { code?: unknown; message?: unknown }
}

/** Minimal JSON-RPC 2.0 client: one POST per call, every failure mapped to the adapter errors. */
export function createSolanaRpc(options: SolanaRpcOptions): SolanaRpc {
  const doFetch = options.fetch ?? globalThis.fetch
  let nextId = 1
  return async <T>(method: string, params: unknown[]): Promise<T> => {
    const id = nextId++
    let body: RpcResponse
    try {
      const response = await doFetch(options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
        signal: AbortSignal.timeout(options.timeoutMs),
      })
      const text = await response.text()
      body = parseBody(text, response.status)
    } catch (error) {
      if (error instanceof UpstreamError) throw error
      throw new UpstreamError(
        `Solana RPC ${method} failed: ${describe(error, options.timeoutMs)}`,
        {
          cause: error,
        },
      )
    }
    if (body.error) {
      const message = `Solana RPC ${method} error ${String(body.error.code)}: ${String(body.error.message)}`
      if (body.error.code === INVALID_PARAMS) throw new ChainInputError(message)
      throw new UpstreamError(message)
    }
    if (!('result' in body)) throw new UpstreamError(`Solana RPC ${method}: response has no result`)
    return body.result as T
  }
}

/** Nodes answer JSON-RPC errors with 200 or 4xx/5xx; the JSON body decides when there is one. */
function parseBody(text: string, status: number): RpcResponse {
  let parsed: unknown
  try {
    parsed = JSON.parse(quoteBigIntegers(text))
  } catch {
    throw new UpstreamError(`Solana RPC answered HTTP ${status} with a non-JSON body`)
  }
  if (!parsed || typeof parsed !== 'object') {
    throw new UpstreamError(`Solana RPC answered HTTP ${status} with an unexpected body`)
  }
  const body = parsed as RpcResponse
  if (!body.error && status >= 400) throw new UpstreamError(`Solana RPC answered HTTP ${status}`)
  return body
}

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `timed out after ${timeoutMs} ms`
  }
  return error instanceof Error ? error.message : String(error)
}

/**
 * Solana writes u64 values (lamports) as bare JSON numbers, which JSON.parse rounds above 2^53
 * (about 9 million SOL). Integers of 16+ digits in value position become strings so the reader can
 * take them as exact bigints. Base58/base64 text never contains the `:`/`,` that precede them.
 */
function quoteBigIntegers(text: string): string {
  return text.replace(/([:,[]\s*)(\d{16,})(?=\s*[,\]}])/g, '$1"$2"')
}

/** A token amount or lamports as the node answers them (a JSON number or a decimal string). */
export function parseAmount(value: unknown): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  if (typeof value === 'string' && /^[0-9]+$/.test(value)) return BigInt(value)
  throw new UpstreamError(`Solana RPC returned a malformed amount: ${String(value)}`)
}

/** The slot an answer was read at (`context.slot`). */
export function contextSlot(context: { slot: number } | undefined): number {
  if (!context || !Number.isSafeInteger(context.slot)) {
    throw new UpstreamError('Solana RPC response has no context.slot')
  }
  return context.slot
}
