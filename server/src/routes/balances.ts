import type { FastifyInstance } from 'fastify'
import { API_PREFIX, BalanceQuerySchema, type BalanceResponse, ROUTES } from 'scope-connect/wire'
import type * as z from 'zod/mini'
import { appKeyOf, requireProject } from '../auth/app-key'
import { type BalanceReadRequest, ChainInputError } from '../chains/types'
import { hasChain } from '../config/project-index'
import type { ProjectConfig } from '../config/projects-schema'
import type { AppContext } from '../context'
import { ApiError } from '../errors'
import { chainInputToApiError } from '../http/chain-errors'
import { BALANCES_CACHE } from '../http/hygiene'
import { enforceAppKeyLimits } from '../http/rate-limit'
import { parseWith } from '../http/validate'
import { assertChainEnabled } from '../sessions/create'
import { balancesBatchCost } from './balances-batch'

/**
 * GET /balances. Identical concurrent reads share one upstream call inside the chain registry
 * (server/src/chains/registry.ts), keyed by chain, token, account and decimals. Charged, before
 * any upstream call, the upstream calls of its one-query plan (`balanceReadCost`), as a batch is.
 */
export function registerBalanceRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get(API_PREFIX + ROUTES.balances, async (request, reply) => {
    const project = requireProject(request, ctx.projects)
    // Parsed once: the charge reads the plan, the read runs it (a malformed query is charged 1,
    // then refused by parseWith, so a caller out of budget still gets its 429 first).
    const parsed = BalanceQuerySchema.safeParse(request.query)
    const read = parsed.success ? balanceRead(parsed.data) : undefined
    await enforceAppKeyLimits(
      ctx,
      request,
      reply,
      project,
      appKeyOf(request)!,
      read ? balanceReadCost(ctx, project, read) : 1,
    )
    const query = parsed.success
      ? parsed.data
      : parseWith(BalanceQuerySchema, request.query, 'query')
    assertChainEnabled(project, query.chainId)
    const adapter = ctx.chains.get(query.chainId)
    if (!adapter) throw new ApiError('UNSUPPORTED_CHAIN', `chain ${query.chainId} is not served`)
    try {
      const balance = await adapter.readBalance(read ?? balanceRead(query))
      const body: BalanceResponse = {
        chainId: query.chainId,
        tokenAddress: query.tokenAddress,
        account: query.account,
        raw: balance.raw.toString(),
        decimals: balance.decimals,
        ...(balance.blockNumber === undefined
          ? {}
          : { blockNumber: balance.blockNumber.toString() }),
      }
      reply.headers(BALANCES_CACHE)
      return body
    } catch (error) {
      if (error instanceof ChainInputError) throw chainInputToApiError(error)
      throw error
    }
  })
}

/** The chain read of a GET /balances query. */
function balanceRead(query: z.infer<typeof BalanceQuerySchema>): BalanceReadRequest {
  return {
    chainId: query.chainId,
    tokenAddress: query.tokenAddress,
    account: query.account,
    ...(query.decimals === undefined ? {} : { decimals: Number(query.decimals) }),
  }
}

/**
 * What one GET /balances is charged (issue 28): the upstream calls of its one-query plan
 * (`ChainAdapter.upstreamCalls`), at least 1, the request itself: an SPL read or an ERC-20 read
 * without decimals on a chain without Multicall3 is 3, a read answered at the block in hand 1. A
 * read of a chain the project has not enabled, or that is not served, costs 1.
 */
export function balanceReadCost(
  ctx: AppContext,
  project: ProjectConfig,
  read: BalanceReadRequest,
): number {
  const adapter = hasChain(project, read.chainId) ? ctx.chains.get(read.chainId) : undefined
  if (!adapter?.upstreamCalls) return 1
  return balancesBatchCost(adapter.upstreamCalls([read]))
}
