import type { FastifyInstance } from 'fastify'
import {
  AddressSchema,
  API_PREFIX,
  type BalanceItemError,
  type BalanceResponse,
  type BalancesQueryItem,
  BalancesRequestSchema,
  type BalancesResponse,
  Caip2Schema,
  DecimalsSchema,
  issuesToFieldIssues,
  ROUTES,
} from 'scope-connect/wire'
import * as z from 'zod/mini'
import { appKeyOf, requireProject } from '../auth/app-key'
import type { BalanceOutcome, BalanceReadRequest } from '../chains/types'
import type { AppContext } from '../context'
import { ApiError } from '../errors'
import { toApiError } from '../http/error-handler'
import { BALANCES_CACHE } from '../http/hygiene'
import { enforceAppKeyLimits } from '../http/rate-limit'
import { parseWith } from '../http/validate'
import { assertChainEnabled } from '../sessions/create'

/** A 100-query batch of Solana addresses is ~17 KB: above the 16 KiB default of other routes. */
export const BALANCES_BATCH_BODY_LIMIT = 64 * 1024

/**
 * A batch is charged by its upstream work (issue 28): the upstream calls its plan makes, at
 * least 1. With Multicall3 an EVM chain costs 1 (one `aggregate3`); without it, one call per read
 * (2 per token asked without decimals) and an `eth_blockNumber`; Solana one `getMultipleAccounts`
 * per 100 addresses and 2 per SPL owner. Queries that fail their checks, or are answered at the
 * block in hand, cost nothing.
 */
export function balancesBatchCost(upstreamCalls: number): number {
  return Math.max(1, upstreamCalls)
}

/** The format checks of GET /balances, applied to one query of a batch. */
const ItemSchema = z.object({
  chainId: Caip2Schema,
  tokenAddress: z.string().check(z.regex(/^(native|[A-Za-z0-9]{20,128})$/)),
  account: AddressSchema,
  decimals: z.optional(DecimalsSchema),
})

/**
 * POST /balances: up to 100 queries of any chains in one request, answered in query order. The
 * queries of one chain are read together (EVM: one Multicall3 call at one pinned block; Solana:
 * getMultipleAccounts and getTokenAccountsByOwner), the chains at once. A query that cannot be
 * answered (a malformed field, a chain not enabled, an upstream failure) gets the code and message
 * GET /balances would have answered, in place of its balance; the batch itself still answers 200.
 */
export function registerBalancesBatchRoute(app: FastifyInstance, ctx: AppContext): void {
  app.post(
    API_PREFIX + ROUTES.balances,
    { bodyLimit: BALANCES_BATCH_BODY_LIMIT },
    async (request, reply) => {
      const project = requireProject(request, ctx.projects)
      const parsed = BalancesRequestSchema.safeParse(request.body)
      if (!parsed.success) {
        // Counted before the refusal, as on every route: a malformed body counts one.
        await enforceAppKeyLimits(ctx, request, reply, project, appKeyOf(request)!, 1)
        parseWith(BalancesRequestSchema, request.body, 'body') // throws the 422
      }
      const { queries } = parsed.data!
      const answers: (BalanceResponse | BalanceItemError)[] = new Array(queries.length)
      const byChain = new Map<string, { index: number; read: BalanceReadRequest }[]>()
      queries.forEach((query, index) => {
        try {
          const read = checkQuery(query)
          assertChainEnabled(project, read.chainId)
          if (!ctx.chains.get(read.chainId)) {
            throw new ApiError('UNSUPPORTED_CHAIN', `chain ${read.chainId} is not served`)
          }
          const group = byChain.get(read.chainId) ?? []
          group.push({ index, read })
          byChain.set(read.chainId, group)
        } catch (error) {
          answers[index] = itemError(query, error)
        }
      })
      // Charged before the work, by the plan's upstream calls: past the caller's budget, a 429
      // and no upstream call.
      let upstreamCalls = 0
      for (const [chainId, group] of byChain) {
        const reads = group.map((g) => g.read)
        upstreamCalls += ctx.chains.get(chainId)!.upstreamCalls?.(reads) ?? reads.length
      }
      await enforceAppKeyLimits(
        ctx,
        request,
        reply,
        project,
        appKeyOf(request)!,
        balancesBatchCost(upstreamCalls),
      )
      await Promise.all(
        [...byChain].map(async ([chainId, group]) => {
          const outcomes = await ctx.chains.get(chainId)!.readBalances(group.map((g) => g.read))
          group.forEach(({ index }, i) => {
            answers[index] = itemAnswer(queries[index]!, outcomes[i]!)
          })
        }),
      )
      const body: BalancesResponse = { balances: answers }
      reply.headers(BALANCES_CACHE)
      return body
    },
  )
}

function checkQuery(query: BalancesQueryItem): BalanceReadRequest {
  const result = ItemSchema.safeParse(query)
  if (!result.success) {
    const [issue] = issuesToFieldIssues(result.error.issues, query)
    throw new ApiError('VALIDATION_FAILED', issue ? `${issue.field} ${issue.reason}` : 'invalid')
  }
  const { chainId, tokenAddress, account, decimals } = result.data
  return { chainId, tokenAddress, account, ...(decimals === undefined ? {} : { decimals }) }
}

function itemAnswer(
  query: BalancesQueryItem,
  outcome: BalanceOutcome,
): BalanceResponse | BalanceItemError {
  if (!outcome.ok) return itemError(query, outcome.error)
  const { raw, decimals, blockNumber } = outcome.result
  return {
    chainId: query.chainId,
    tokenAddress: query.tokenAddress,
    account: query.account,
    raw: raw.toString(),
    decimals,
    ...(blockNumber === undefined ? {} : { blockNumber: blockNumber.toString() }),
  }
}

/** The code and message GET /balances would answer for this query. */
function itemError(query: BalancesQueryItem, error: unknown): BalanceItemError {
  const apiError = toApiError(error)
  if (!apiError) throw error
  return {
    chainId: query.chainId,
    tokenAddress: query.tokenAddress,
    account: query.account,
    error: { code: apiError.code, message: apiError.message },
  }
}
