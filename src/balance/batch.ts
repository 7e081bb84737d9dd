import { AppError } from '../errors/app-error'
import type { HttpClient, HttpRequest } from '../http/client'
import { BACKEND_ERROR_STATUS } from '../wire/errors'
import { APP_KEY_HEADER, BALANCES_ROUTE } from '../wire/routes'
import {
  BALANCES_BATCH_MAX,
  type BalanceItemError,
  type BalanceResponse,
  BalancesResponseSchema,
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
    BalancesResponseSchema,
  )
  if (body.balances.length !== queries.length) {
    throw new AppError(
      'RPC_ERROR',
      `${what} failed: the backend answered ${body.balances.length} balances for ${queries.length} queries.`,
      { status: 200 },
    )
  }
  return queries.map((query, index) => toResult(query, body.balances[index]!, refineCode))
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
