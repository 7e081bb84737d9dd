import type { FastifyServerOptions } from 'fastify'

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

export function loggerOptions(
  options: LoggingOptions | false | undefined,
): FastifyServerOptions['logger'] {
  if (!options) return false
  return {
    level: options.level ?? 'info',
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    ...(options.destination ? { stream: options.destination } : {}),
  }
}
