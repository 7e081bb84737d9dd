import type { FastifyRequest, FastifyServerOptions } from 'fastify'
import { loggedUrl } from './logged-url'

export { loggedUrl, sessionLogId } from './logged-url'

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

/** Fastify's own request serializer, with the query allow-listed and ids in the path hashed. */
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
