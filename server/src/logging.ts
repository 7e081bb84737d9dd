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
  'signature',
  'body.sessionToken',
  'body.signature',
  '*.sessionToken',
  '*.signature',
  '*.tokenHash',
]

/** Query parameters that carry a credential: the relay token (browsers cannot set WebSocket headers). */
const SECRET_QUERY = /([?&]token=)[^&#]*/g

/** Fastify's own request serializer, with credentials in the query string replaced. */
function serializeRequest(request: FastifyRequest) {
  const version = request.headers?.['accept-version']
  return {
    method: request.method,
    url: request.url.replace(SECRET_QUERY, '$1[redacted]'),
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
