import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { API_PREFIX } from 'scope-connect/wire'
import { allowsOrigin, type ProjectIndex } from '../config/project-index'
import { ApiError } from '../errors'
import { sendApiError } from './error-handler'
import type { RouteTable } from './route-table'

const CALLBACKS = `${API_PREFIX}/callback/`
// ETag and X-Long-Poll-Max-Ms: a browser page long-polls the result only if it can read them.
const EXPOSED = 'retry-after, ratelimit, ratelimit-policy, etag, x-long-poll-max-ms'
// X-Session-Nonce on wallet callbacks; If-None-Match on the result's long-poll.
const ALLOWED_HEADERS = 'content-type, x-app-key, authorization, x-session-nonce, if-none-match'

/**
 * Browser access. Before the credential is read the project is unknown, so CORS headers go to an
 * origin that some project allows (any origin on the wallet callbacks); the per-project list is
 * enforced with 403 ORIGIN_NOT_ALLOWED once the app key or session names the project.
 * `Origin: null` (sandboxed iframes, `data:` and `file:` pages, some redirects: any site can
 * produce one) is never allowed, on any route, whatever the project lists.
 */
export function installCors(
  app: FastifyInstance,
  projects: ProjectIndex,
  routes: RouteTable,
): void {
  const originOk = (url: string, origin: string) =>
    origin !== 'null' &&
    (url.startsWith(CALLBACKS) || projects.all().some((p) => allowsOrigin(p, origin)))

  // Callback style, not async: this runs on every request, and an async hook costs a promise each.
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done) => {
    const origin = request.headers.origin
    if (typeof origin === 'string' && originOk(request.url, origin)) {
      reply.header('access-control-allow-origin', origin)
      reply.header('vary', 'Origin')
      reply.header('access-control-expose-headers', EXPOSED)
    }
    done()
  })

  app.options('*', async (request, reply) => {
    const methods = routes.methodsFor(request.url).filter((m) => m !== 'OPTIONS' && m !== 'HEAD')
    if (methods.length === 0) return sendApiError(reply, new ApiError('NOT_FOUND', 'no such route'))
    const origin = request.headers.origin
    if (typeof origin === 'string') {
      if (!originOk(request.url, origin)) {
        return sendApiError(
          reply,
          new ApiError('ORIGIN_NOT_ALLOWED', `origin ${origin} is not allowed`),
        )
      }
      reply.header('access-control-allow-methods', [...methods, 'OPTIONS'].join(', '))
      reply.header('access-control-allow-headers', ALLOWED_HEADERS)
      reply.header('access-control-max-age', '600')
    }
    reply.header('allow', [...methods, 'OPTIONS'].join(', '))
    return reply.code(204).send()
  })
}
