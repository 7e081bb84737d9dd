import type { FastifyInstance } from 'fastify'
import { API_PREFIX, BalanceQuerySchema, type BalanceResponse, ROUTES } from 'scope-connect/wire'
import { appKeyOf, requireProject } from '../auth/app-key'
import { ChainInputError } from '../chains/types'
import type { AppContext } from '../context'
import { ApiError } from '../errors'
import { chainInputToApiError } from '../http/chain-errors'
import { BALANCES_CACHE } from '../http/hygiene'
import { enforceAppKeyLimits } from '../http/rate-limit'
import { parseWith } from '../http/validate'
import { assertChainEnabled } from '../sessions/create'

/**
 * GET /balances. Identical concurrent reads share one upstream call inside the chain registry
 * (server/src/chains/registry.ts), keyed by chain, token, account and decimals.
 */
export function registerBalanceRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get(API_PREFIX + ROUTES.balances, async (request, reply) => {
    const project = requireProject(request, ctx.projects)
    await enforceAppKeyLimits(ctx, request, reply, project, appKeyOf(request)!)
    const query = parseWith(BalanceQuerySchema, request.query, 'query')
    assertChainEnabled(project, query.chainId)
    const adapter = ctx.chains.get(query.chainId)
    if (!adapter) throw new ApiError('UNSUPPORTED_CHAIN', `chain ${query.chainId} is not served`)
    const decimals = query.decimals === undefined ? undefined : Number(query.decimals)
    try {
      const balance = await adapter.readBalance({
        chainId: query.chainId,
        tokenAddress: query.tokenAddress,
        account: query.account,
        ...(decimals === undefined ? {} : { decimals }),
      })
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
