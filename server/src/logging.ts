import { createHash } from 'node:crypto'
import type { FastifyRequest, FastifyServerOptions } from 'fastify'

/** A pino destination: anything with `write(line)`; tests pass one to read what was logged. */
export interface LogDestination {
  write(line: string): unknown
}

export interface LoggingOptions {
  level?: string
  destination?: LogDestination
}

/**
 * Secrets never reach the log: bearer tokens and cookies in headers, and session tokens and
 * signatures wherever a body or an object logged by a route carries them. The request serializer
 * logs the method and URL only (no headers, no body), so this list is a second line of defence.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'authorization',
  'sessionToken',
  'sessionId',
  'nonce',
  'body.sessionId',
  'body.nonce',
  '*.sessionId',
  '*.nonce',
  'req.headers["x-session-nonce"]',
  'headers["x-session-nonce"]',
  'signature',
  'body.sessionToken',
  'body.signature',
  '*.sessionToken',
  '*.signature',
  '*.tokenHash',
]

/** Query parameters that carry a credential: the relay token (browsers cannot set WebSocket headers). */
const SECRET_QUERY = /([?&]token=)[^&#]*/g

/**
 * How a session id appears in logs: `s:` and 12 hex digits of its SHA-256. Enough to follow one
 * session through the log lines and to find it from an id you hold, never enough to act on it
 * (the id travels in universal links and a log reader must not be able to use it).
 */
export function sessionLogId(sessionId: string): string {
  return `s:${createHash('sha256').update(sessionId).digest('hex').slice(0, 12)}`
}

/** `/sessions/<id>` in a path; the id is any run of characters up to the next `/`, `?` or `#`. */
const SESSION_IN_PATH = /(\/sessions\/)([^/?#]+)/g

/** A request URL as logged: credentials in the query replaced, session ids as `sessionLogId`. */
export function loggedUrl(url: string): string {
  return url
    .replace(SECRET_QUERY, '$1[redacted]')
    .replace(SESSION_IN_PATH, (_match, prefix: string, id: string) => {
      let decoded = id
      try {
        decoded = decodeURIComponent(id)
      } catch {}
      return prefix + sessionLogId(decoded)
    })
}

/** Fastify's own request serializer, with credentials in the query and session ids replaced. */
function serializeRequest(request: FastifyRequest) {
  const version = request.headers?.['accept-version']
  return {
    method: request.method,
    url: loggedUrl(request.url),
    version: typeof version === 'string' ? version : undefined,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  }
}

export function loggerOptions(
  options: LoggingOptions | false | undefined,
): FastifyServerOptions['logger'] {
  if (!options) return false
  return {
    level: options.level ?? 'info',
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { req: serializeRequest },
    ...(options.destination ? { stream: options.destination } : {}),
  }
}
