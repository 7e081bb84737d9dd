import type { LogLevel } from './logging'

// Where a module that logs rarely (the HTTP client's debug lines) sends its lines without importing
// the logger and its redaction: `setDebugMode` and `setConsoleLogging` (src/logging.ts), the only
// ways to turn printing on, plug the logger in here. Until then a line has nowhere to go, as the
// logger would drop it anyway.

type Write = (level: LogLevel, scope: string, message: string, data?: unknown) => void

let write: Write | undefined

/** Sends the lines to `next` from now on (the logger's own writer). */
export function plugLogger(next: Write): void {
  write = next
}

/** One line for the logger, if it is plugged in (it prints only what its switches let through). */
export function logLine(level: LogLevel, scope: string, message: string, data?: unknown): void {
  write?.(level, scope, message, data)
}
