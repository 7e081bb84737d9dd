import type { FastifyInstance } from 'fastify'
import {
  API_PREFIX,
  LONG_POLL_MAX_HEADER,
  LONG_POLL_MAX_MS,
  ROUTES,
  TransactionQuerySchema,
} from 'scope-connect/wire'
import { appKeyOf, requireProject } from '../auth/app-key'
import type { AppContext } from '../context'
import { ApiError, fieldError } from '../errors'
import { callerKey, enforceAppKeyLimits } from '../http/rate-limit'
import { parseWith } from '../http/validate'
import { assertChainEnabled } from '../sessions/create'
import { ifNoneMatchHits, parseWaitMs } from '../sessions/long-poll'
import { statusResponseEtag, toStatusResponse } from '../transactions/report'

const LONG_POLL_MAX = String(LONG_POLL_MAX_MS)

/**
 * GET /transactions: a transaction's status read by the backend, so a dApp needs no RPC of its
 * own. With `If-None-Match` naming the current tag and `waitMs`, the answer waits for a change,
 * re-reading the transaction at each new head of the chain's shared block watcher; 304 when none
 * came. Limited like the other app-key reads, once per request whatever the wait; the waits open
 * at once are capped per caller (app key and client IP) and per instance: past the cap, 429
 * TOO_MANY_WAITERS. A wait costs the node nothing of its own: each new head is read once for every
 * waiter of the chain (`TransactionService.follow`).
 */
export function registerTransactionRoute(app: FastifyInstance, ctx: AppContext): void {
  // Waiting long-polls answer as soon as the server starts closing. A set of callbacks rather
  // than listeners on one signal: hundreds of waiters would trip the listener-leak warning.
  let closing = false
  const waiting = new Set<() => void>()
  app.addHook('preClose', async () => {
    closing = true
    for (const end of [...waiting]) end()
  })

  app.get(API_PREFIX + ROUTES.transactions, async (request, reply) => {
    const project = requireProject(request, ctx.projects)
    await enforceAppKeyLimits(ctx, request, reply, project, appKeyOf(request)!)
    const query = parseWith(TransactionQuerySchema, request.query, 'query')
    const waitMs = parseWaitMs(request.query)
    assertChainEnabled(project, query.chainId)
    const { chainId } = query
    const service = ctx.transactions
    const hash = service.serves(chainId) ? service.normalizeHash(chainId, query.hash) : query.hash
    if (hash === undefined) throw fieldError('hash', `is not a transaction hash of ${chainId}`)
    const ifNoneMatch = request.headers['if-none-match']
    reply.header('cache-control', 'no-store')
    reply.header(LONG_POLL_MAX_HEADER, LONG_POLL_MAX)

    const willWait = waitMs > 0 && ifNoneMatch !== undefined && service.serves(chainId)
    // Follow before the first read, so a block that lands between the read and the wait is seen.
    const heads = willWait
      ? service.follow(chainId, hash, `${appKeyOf(request)}|${callerKey(ctx, request)}`)
      : undefined
    if (willWait && !heads) {
      throw new ApiError(
        'TOO_MANY_WAITERS',
        'too many transaction long-polls open at once; retry when one ends',
        { headers: { 'retry-after': '1' } },
      )
    }
    try {
      let body = toStatusResponse(
        chainId,
        hash,
        await service.read(chainId, hash, heads !== undefined),
      )
      let etag = statusResponseEtag(body)
      if (heads && ifNoneMatchHits(ifNoneMatch, etag)) {
        const ended = new AbortController()
        const end = () => ended.abort()
        reply.raw.once('close', end)
        // A client gone during the first read closed before the listener: its wait ends at once.
        if (closing || reply.raw.destroyed) end()
        waiting.add(end)
        const timer = setTimeout(end, waitMs)
        try {
          while (ifNoneMatchHits(ifNoneMatch, etag) && !ended.signal.aborted) {
            if (!(await heads.next(ended.signal))) break
            body = toStatusResponse(chainId, hash, await service.read(chainId, hash, true, true))
            etag = statusResponseEtag(body)
          }
        } finally {
          clearTimeout(timer)
          reply.raw.off('close', end)
          waiting.delete(end)
        }
      }
      reply.header('etag', etag)
      if (ifNoneMatchHits(ifNoneMatch, etag)) return reply.code(304).send()
      return body
    } finally {
      heads?.stop()
    }
  })
}
