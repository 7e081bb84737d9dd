import type { Socket } from 'node:net'
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import { ApiError } from '../errors'

/**
 * Every answer says `X-Content-Type-Options: nosniff`: a browser never reads a JSON answer (or an
 * error body that echoes input) as HTML or script.
 */
export const NOSNIFF = { 'x-content-type-options': 'nosniff' } as const

/**
 * The request hygiene every route shares (issue 28, item 6): `nosniff` on every answer, and a
 * request whose `Host` is doubled (or missing on HTTP/1.1) refused with 400 BAD_REQUEST in the
 * documented body before any route sees it: two Host headers are how a request is smuggled past
 * a proxy that reads the other one.
 */
export function installHygiene(app: FastifyInstance): void {
  // Callback style, not async: this runs on every request (see installCors).
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(NOSNIFF)
    const raw = request.raw.rawHeaders
    let hosts = 0
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!
      if (name.length === 4 && name.toLowerCase() === 'host') hosts++
    }
    if (hosts > 1) {
      done(new ApiError('BAD_REQUEST', 'the request has more than one Host header'))
    } else if (hosts === 0 && request.raw.httpVersion !== '1.0') {
      done(new ApiError('BAD_REQUEST', 'the request has no Host header'))
    } else done()
  })
}

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses before any route (a malformed
 * request line or header, headers past the size limit, a request that took too long) answered in
 * the documented error body instead of Fastify's own `{ error, message, statusCode }`: 431
 * HEADERS_TOO_LARGE, 408 REQUEST_TIMEOUT, otherwise 400 BAD_REQUEST. The connection is closed.
 */
export function clientErrorHandler(
  this: { log: FastifyBaseLogger },
  error: NodeJS.ErrnoException,
  socket: Socket,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const refusal =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new ApiError('HEADERS_TOO_LARGE', 'the request headers are too large')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new ApiError('REQUEST_TIMEOUT', 'the request took too long')
        : new ApiError('BAD_REQUEST', 'the request is malformed')
  this.log.trace({ code: error.code }, `client error ${refusal.status}`)
  if (socket.writable) {
    const body = JSON.stringify(refusal.toBody())
    socket.write(
      `HTTP/1.1 ${refusal.status} ${STATUS_TEXT[refusal.status] ?? 'Bad Request'}\r\n` +
        'content-type: application/json; charset=utf-8\r\n' +
        `content-length: ${Buffer.byteLength(body)}\r\n` +
        'x-content-type-options: nosniff\r\n' +
        'connection: close\r\n\r\n' +
        body,
    )
  }
  socket.destroy(error)
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
}

/**
 * `/config`: the project's networks and wallets change only when the projects file does, so
 * browsers and shared caches may keep a 200 for a minute, one copy per app key and Origin (the
 * CORS answer depends on it).
 */
export const CONFIG_CACHE = {
  'cache-control': 'public, max-age=60',
  vary: 'Origin, X-App-Key',
} as const

/** `/balances` (GET and the POST batch): a balance moves with every block; never stored. */
export const BALANCES_CACHE = { 'cache-control': 'no-store' } as const
