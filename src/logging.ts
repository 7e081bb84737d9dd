/**
 * The library's one logger. Silent by default; `setConsoleLogging(true)` prints info and above,
 * `setDebugMode(true)` adds debug lines (and turns console logging on). Secrets are redacted before
 * anything is printed: by key (tokens, keys, signatures, pairing URIs) and by pattern inside strings.
 */

import { plugLogger } from './log-sink'

let consoleLogging = false
let debugMode = false

/** Never throws. Default off. Turning it on also turns console logging on; off leaves that as it is. */
export function setDebugMode(enabled: boolean): void {
  debugMode = enabled === true
  if (debugMode) consoleLogging = true
  plugLogger(write)
}

/** Never throws. Default off. */
export function setConsoleLogging(enabled: boolean): void {
  consoleLogging = enabled === true
  plugLogger(write)
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error'

const SECRET_KEY =
  /token|secret|signature|symkey|privatekey|password|authorization|nonce|^uri$|^snapshot$|^persisted/i
const SECRET_IN_TEXT: ReadonlyArray<[RegExp, string]> = [
  [/(symKey=)[0-9a-fA-F]+/g, '$1[redacted]'],
  [/(Bearer\s+)[^\s"']+/gi, '$1[redacted]'],
  [/(token=)[^&\s"']+/gi, '$1[redacted]'],
]
export const REDACTED = '[redacted]'

/** `text` with the secret patterns (a `symKey=`, a Bearer value, a `token=`) masked. */
export function redactText(text: string): string {
  return SECRET_IN_TEXT.reduce(
    (out, [pattern, replacement]) => out.replace(pattern, replacement),
    text,
  )
}

/** A copy of `value` safe to print: secret-named keys replaced, secret patterns masked, depth-limited. */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value)
  if (value === null || typeof value !== 'object')
    return typeof value === 'bigint' ? value.toString() : value
  if (depth > 5) return '[…]'
  if (value instanceof Uint8Array) return REDACTED
  if (value instanceof Error) {
    const code = (value as { code?: unknown }).code
    return {
      name: value.name,
      message: redactText(value.message),
      ...(code === undefined ? {} : { code }),
    }
  }
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1))
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) ? REDACTED : redact(item, depth + 1)
  }
  return out
}

function write(level: LogLevel, scope: string, message: string, data?: unknown): void {
  try {
    if (!consoleLogging || (level === 'debug' && !debugMode)) return
    const line = `[scope-connect:${scope}] ${redactText(message)}`
    const args = data === undefined ? [line] : [line, redact(data)]
    const sink =
      level === 'debug'
        ? console.debug
        : level === 'info'
          ? console.info
          : level === 'warn'
            ? console.warn
            : console.error
    sink(...args)
  } catch {
    // Logging must never break the caller.
  }
}

export interface Logger {
  debug(message: string, data?: unknown): void
  info(message: string, data?: unknown): void
  warn(message: string, data?: unknown): void
  error(message: string, data?: unknown): void
}

/** A logger for one module; every module of the library logs through one of these. */
export function createLogger(scope: string): Logger {
  return {
    debug: (message, data) => write('debug', scope, message, data),
    info: (message, data) => write('info', scope, message, data),
    warn: (message, data) => write('warn', scope, message, data),
    error: (message, data) => write('error', scope, message, data),
  }
}
