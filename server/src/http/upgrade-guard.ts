import type { FastifyInstance } from 'fastify'
import { ApiError } from '../errors'

/**
 * @fastify/websocket sends every upgrade request through the router, whatever its URL, but only
 * the routes in `websocketRoutes` (the relay's scope) can take one. Anywhere else the answer is
 * 404 NOT_FOUND and the connection closes: the socket has left Node's HTTP parser for the
 * upgrade, so neither keep-alive nor the request timeouts look after it any more, and a request
 * body would never arrive. Callback style: a request that is no upgrade costs one property read.
 */
export function installUpgradeGuard(
  app: FastifyInstance,
  websocketRoutes: ReadonlySet<string>,
): void {
  app.addHook('onRequest', (request, reply, done) => {
    // Node's parser sets `upgrade` on the requests it handed to the `upgrade` event (not typed).
    const upgraded = (request.raw as { upgrade?: boolean }).upgrade === true
    if (!upgraded || websocketRoutes.has(request.routeOptions.url ?? '')) {
      done()
      return
    }
    reply.header('connection', 'close')
    reply.raw.once('finish', () => request.raw.socket.destroy())
    done(new ApiError('NOT_FOUND', 'no WebSocket at this URL'))
  })
}
