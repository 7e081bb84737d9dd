import * as z from 'zod/mini'
import { AppError } from '../errors/app-error'
import type { HttpClient, HttpRequest } from '../http/client'
import { BACKEND_ERROR_STATUS } from '../wire/errors'
import { APP_KEY_HEADER, BALANCES_ROUTE } from '../wire/routes'
import {
  BALANCES_BATCH_MAX,
  type BalanceItemError,
  BalanceItemErrorSchema,
  type BalanceResponse,
  BalanceResponseSchema,
} from '../wire/schemas/balances'
import type { TokenBalance, TokenBalanceQuery } from './types'

/**
 * One query's answer in `getBalances`, in query order: its balance, or the error `getBalance`
 * would have rejected with for it (`UNSUPPORTED_CHAIN` or `RPC_ERROR`, with the backend's code in
 * `backendCode`).
 */
export type TokenBalanceResult =
  | { status: 'success'; query: TokenBalanceQuery; balance: TokenBalance }
  | { status: 'failure'; query: TokenBalanceQuery; error: AppError }

type Refine = NonNullable<HttpRequest['refineCode']>

/**
 * Each entry of a POST /balances answer as `BalancesResponseSchema`'s union checks it, with the
 * issues it raises, without `z.union` (0.15 KB gzip of the reader): a balance, else an item error,
 * else the issues of the one shape that failed without aborting (zod's union rule: only a balance
 * can, when only its formats or ranges are wrong, as every abort here is an `invalid_type`), else
 * `invalid_union`. test/wire-checks.property.test.ts runs the union against it.
 */
function parseEntries(payload: z.core.ParsePayload<{ balances: unknown[] }>): void {
  payload.value.balances = payload.value.balances.map((entry, index) => {
    const balance = BalanceResponseSchema.safeParse(entry)
    if (balance.success) return balance.data
    const failure = BalanceItemErrorSchema.safeParse(entry)
    if (failure.success) return failure.data
    const path = ['balances', index]
    const issues = balance.error.issues
    if (issues.every((issue) => issue.code !== 'invalid_type')) {
      // Already final (zod leaves out `input`); only the path moves under the entry.
      for (const issue of issues) {
        payload.issues.push({ ...issue, path: [...path, ...issue.path] } as z.core.$ZodRawIssue)
      }
    } else {
      payload.issues.push({
        code: 'invalid_union',
        input: entry,
        path,
        errors: [issues, failure.error.issues],
      })
    }
    return entry
  })
}

/** POST /balances's answer (`BalancesResponseSchema`): its entries checked by `parseEntries`. */
export const BatchAnswerSchema = /* @__PURE__ */ z
  .object({ balances: /* @__PURE__ */ z.array(/* @__PURE__ */ z.unknown()) })
  .check(/* @__PURE__ */ z.check(parseEntries))

/**
 * POSTs the queries to `/balances`, at most `BALANCES_BATCH_MAX` (100) per request, the requests
 * at once, and answers in query order. A request that fails rejects the whole call (as
 * `getBalance` would); a query the backend could not answer is its own `failure`.
 */
export async function readBalances(
  http: HttpClient,
  appKey: string,
  queries: readonly TokenBalanceQuery[],
  refineCode: Refine,
): Promise<TokenBalanceResult[]> {
  const chunks: TokenBalanceQuery[][] = []
  for (let start = 0; start < queries.length; start += BALANCES_BATCH_MAX) {
    chunks.push(queries.slice(start, start + BALANCES_BATCH_MAX))
  }
  const answers = await Promise.all(
    chunks.map((chunk) => readChunk(http, appKey, chunk, refineCode)),
  )
  return answers.flat()
}

async function readChunk(
  http: HttpClient,
  appKey: string,
  queries: readonly TokenBalanceQuery[],
  refineCode: Refine,
): Promise<TokenBalanceResult[]> {
  const what = 'POST /balances'
  const body = await http.json(
    {
      method: 'POST',
      path: BALANCES_ROUTE,
      json: {
        queries: queries.map(({ chainId, tokenAddress, account, decimals }) => ({
          chainId: String(chainId),
          tokenAddress: String(tokenAddress),
          account: String(account),
          decimals, // left out of the JSON when undefined
        })),
      },
      headers: { [APP_KEY_HEADER]: appKey },
      what,
      refineCode,
    },
    BatchAnswerSchema,
  )
  if (body.balances.length !== queries.length) {
    throw new AppError(
      'RPC_ERROR',
      `${what} failed: the backend answered ${body.balances.length} balances for ${queries.length} queries.`,
      { status: 200 },
    )
  }
  const entries = body.balances as (BalanceResponse | BalanceItemError)[]
  return queries.map((query, index) => toResult(query, entries[index]!, refineCode))
}

function toResult(
  query: TokenBalanceQuery,
  answer: BalanceResponse | BalanceItemError,
  refineCode: Refine,
): TokenBalanceResult {
  if ('error' in answer) {
    const { code, message } = answer.error
    const status = (BACKEND_ERROR_STATUS as Record<string, number | undefined>)[code]
    const error = new AppError(
      refineCode({ status: status ?? 200, backendCode: code }) ?? 'RPC_ERROR',
      `POST /balances: ${query.chainId} ${query.tokenAddress} of ${query.account}: ${message}`,
      { backendCode: code, status },
    )
    return { status: 'failure', query, error }
  }
  return { status: 'success', query, balance: toBalance(answer, query.decimals) }
}

/** The balance of an answer: the query's `decimals` when given, else the backend's. */
export function toBalance(answer: BalanceResponse, decimals: number | undefined): TokenBalance {
  const balance: TokenBalance = {
    raw: BigInt(answer.raw),
    decimals: decimals ?? answer.decimals,
    chainId: answer.chainId,
  }
  if (answer.blockNumber !== undefined) balance.blockNumber = BigInt(answer.blockNumber)
  return balance
}
