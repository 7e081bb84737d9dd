import type { ReadStatusInput, StatusRead } from '../../machines/transaction/transaction.types'
import { normalizeBaseUrl } from '../http/base-url'
import { createHttpClient, type FetchLike, type HttpRequest } from '../http/client'
import { APP_KEY_HEADER, LONG_POLL_MAX_MS, ROUTES } from '../wire/routes'
import { TransactionStatusResponseSchema } from '../wire/schemas/transactions'

/** Options of `createTransactionStatusReader`: the backend, the app key, the long-poll wait. */
export interface TransactionStatusReaderOptions {
  baseUrl: string
  appKey: string
  fetchImpl?: FetchLike
  /** How long the backend may hold one read for a change; default `LONG_POLL_MAX_MS` (25 s). */
  waitMs?: number
}

/**
 * A read after the first that comes back sooner than this with nothing new did not wait (a proxy
 * that drops `waitMs`, a backend without long-polls): it pauses `PAUSE_MS` before it returns, so
 * polls are never closer than that whatever the backend answers.
 */
const QUICK_MS = 500
const PAUSE_MS = 1_000

/**
 * One read of `GET /transactions` per call: the first at once, the next ones long-polled with
 * `If-None-Match` (the backend answers when the status, the confirmations or the replacement
 * change, woken by new blocks; 304 when `waitMs` passed without one, and the last read stands).
 * No RPC endpoint in the dApp. Rejects with `AppError` `RPC_ERROR` (transport, non-2xx, bad body)
 * or `UNSUPPORTED_CHAIN` (a chain the backend does not serve or the project did not enable).
 */
export function createTransactionStatusReader(options: TransactionStatusReaderOptions) {
  const baseUrl = normalizeBaseUrl(options?.baseUrl) // INVALID_CONFIG, not a TypeError, for none
  const waitMs = options.waitMs ?? LONG_POLL_MAX_MS
  const http = createHttpClient({
    baseUrl,
    fetchImpl: options.fetchImpl,
    errorCode: 'RPC_ERROR',
  })
  return async (input: ReadStatusInput, signal: AbortSignal): Promise<StatusRead> => {
    const last = input.last
    const request: HttpRequest = {
      method: 'GET',
      path: ROUTES.transactions,
      searchParams: {
        chainId: input.chainId,
        hash: input.hash,
        ...(last?.etag ? { waitMs: String(waitMs) } : {}),
      },
      headers: {
        [APP_KEY_HEADER]: options.appKey,
        ...(last?.etag ? { 'if-none-match': last.etag } : {}),
      },
      what: 'GET /transactions',
      refineCode: ({ backendCode }) =>
        backendCode === 'UNSUPPORTED_CHAIN' || backendCode === 'CHAIN_NOT_ENABLED'
          ? 'UNSUPPORTED_CHAIN'
          : undefined,
      timeoutMs: waitMs + 10_000,
      signal,
      okStatuses: [304],
    }
    const started = performance.now()
    const response = await http.response(request)
    const read = response.status === 304 && last ? last : await parseRead(response, request)
    if (last && sameRead(read, last) && performance.now() - started < QUICK_MS) {
      await pause(PAUSE_MS, signal)
    }
    return read
  }

  async function parseRead(response: Response, request: HttpRequest): Promise<StatusRead> {
    const body = await http.parse(response, request, TransactionStatusResponseSchema)
    return {
      status: body.status,
      blockNumber: body.blockNumber ?? null,
      confirmations: body.confirmations ?? 0,
      replacedBy: body.replacedBy ?? null,
      revertReason: body.revertReason ?? null,
      etag: response.headers.get('etag'),
    }
  }
}

/** Nothing the transaction chart follows changed (the etag aside: a proxy may drop it). */
function sameRead(read: StatusRead, last: StatusRead): boolean {
  return (
    read.status === last.status &&
    read.blockNumber === last.blockNumber &&
    read.confirmations === last.confirmations &&
    read.replacedBy === last.replacedBy &&
    read.revertReason === last.revertReason
  )
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const timer = setTimeout(resolve, ms)
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer)
        resolve()
      },
      { once: true },
    )
  })
}
