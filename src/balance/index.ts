import type { AppErrorCode } from '../errors/app-error'
import { normalizeBaseUrl } from '../http/base-url'
import { createHttpClient, type FetchLike, requireNonEmpty } from '../http/client'
import type { HttpFailureInfo } from '../http/errors'
import { parseParameters } from '../wire/parse-parameters'
import { APP_KEY_HEADER, BALANCES_ROUTE } from '../wire/routes'
import { BalanceResponseSchema } from '../wire/schemas'
import { readBalances, type TokenBalanceResult, toBalance } from './batch'
import { TokenBalanceQueriesSchema, TokenBalanceQuerySchema } from './parameters'
import type { TokenBalance, TokenBalanceQuery } from './types'

export type { TokenBalanceResult } from './batch'
export type { TokenBalance, TokenBalanceQuery } from './types'

/** Options of `createBalanceReader`: the backend, the app key, and an optional fetch and timeout. */
export interface BalanceReaderOptions {
  /** Backend base URL; a trailing `/` and a trailing `/api/v1` are removed. HTTPS except local hosts. */
  baseUrl: string
  /** Public client identifier, sent as `X-App-Key`. */
  appKey: string
  /** Injected fetch for tests or non-browser hosts; defaults to `globalThis.fetch`. */
  fetchImpl?: typeof fetch | FetchLike
  /** Per-request timeout; default 10 000 ms. */
  timeoutMs?: number
}

/** Reads token balances through the backend (`createBalanceReader`). */
export interface BalanceReader {
  /**
   * Reads one balance through the backend (GET `/api/v1/connect/balances`, `X-App-Key`).
   *
   * Rejects with `UNSUPPORTED_CHAIN` when the backend does not support the chain (422
   * `UNSUPPORTED_CHAIN`) or the project has not enabled it (403 `CHAIN_NOT_ENABLED`); with `RPC_ERROR`
   * on a transport failure, a timeout, any other non-2xx answer (429 included, with `retryAfterMs`)
   * or an invalid body. Every error carries `status`, `backendCode` and `details` when known.
   * Rejects with `INVALID_CONFIG`, naming the field, before any request when `query` is not a
   * query (`TokenBalanceQuerySchema`: CAIP-2 chain, `native` or a token address, an address,
   * decimals 0..255).
   */
  getBalance(query: TokenBalanceQuery): Promise<TokenBalance>
  /**
   * Reads many balances of any chains (POST `/api/v1/connect/balances`, one request per 100
   * queries, sent at once) and answers in query order: each a `success` with its balance, or a
   * `failure` with the `AppError` `getBalance` would have rejected with for that query
   * (`UNSUPPORTED_CHAIN` or `RPC_ERROR`, the backend's code in `backendCode`). An empty list
   * answers `[]` without a request.
   *
   * Rejects with `RPC_ERROR` when a request fails as a whole: a transport failure, a timeout, a
   * non-2xx answer (429 included, with `retryAfterMs`) or an invalid body; with `INVALID_CONFIG`,
   * naming the field, before any request when `queries` is not an array of queries of strings.
   */
  getBalances(queries: readonly TokenBalanceQuery[]): Promise<TokenBalanceResult[]>
}

const UNSUPPORTED_CHAIN_CODES = /* @__PURE__ */ new Set(['UNSUPPORTED_CHAIN', 'CHAIN_NOT_ENABLED'])

function refineBalanceCode({ backendCode }: HttpFailureInfo): AppErrorCode | undefined {
  return backendCode !== undefined && UNSUPPORTED_CHAIN_CODES.has(backendCode)
    ? 'UNSUPPORTED_CHAIN'
    : undefined
}

/**
 * Creates a balance reader. Needs no wallet connection and no RPC endpoint of its own.
 *
 * Throws `INVALID_CONFIG` when `baseUrl` or `appKey` is missing or empty, `baseUrl` is not an
 * absolute URL (or plain HTTP on a non-local host), or no fetch is available.
 */
export function createBalanceReader(options: BalanceReaderOptions): BalanceReader {
  const baseUrl = normalizeBaseUrl(options?.baseUrl)
  const appKey = requireNonEmpty(options.appKey, 'appKey')
  const http = createHttpClient({
    baseUrl,
    fetchImpl: options.fetchImpl as FetchLike | undefined,
    timeoutMs: options.timeoutMs,
    errorCode: 'RPC_ERROR',
  })
  return {
    async getBalance(query) {
      parseParameters(TokenBalanceQuerySchema, query, 'query')
      const searchParams: Record<string, string> = {
        chainId: String(query.chainId),
        tokenAddress: String(query.tokenAddress),
        account: String(query.account),
      }
      if (query.decimals !== undefined) searchParams.decimals = String(query.decimals)
      const answer = await http.json(
        {
          method: 'GET',
          path: BALANCES_ROUTE,
          searchParams,
          headers: { [APP_KEY_HEADER]: appKey },
          what: 'GET /balances',
          refineCode: refineBalanceCode,
        },
        BalanceResponseSchema,
      )
      return toBalance(answer, query.decimals)
    },
    async getBalances(queries) {
      // Checked, and answered with the caller's own query objects (`result.query`).
      parseParameters(TokenBalanceQueriesSchema, queries, 'queries')
      return readBalances(http, appKey, queries, refineBalanceCode)
    },
  }
}
