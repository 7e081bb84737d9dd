import type { LogDestination } from './logging'

/** pino's numeric levels, as a terminal shows them. */
const LEVELS: Record<number, { name: string; color: string }> = {
  10: { name: 'TRACE', color: '90' },
  20: { name: 'DEBUG', color: '36' },
  30: { name: 'INFO ', color: '32' },
  40: { name: 'WARN ', color: '33' },
  50: { name: 'ERROR', color: '31' },
  60: { name: 'FATAL', color: '35' },
}

/** Fields every line has, or that the line's head already shows. */
const SHOWN = new Set([
  'level',
  'time',
  'pid',
  'hostname',
  'msg',
  'reqId',
  'req',
  'res',
  'responseTime',
])

export interface PrettyOptions {
  /** ANSI colours (a terminal that shows them). */
  color: boolean
  /**
   * The method and URL of requests in flight by request id, so the `request completed` line names
   * its request too (the destination keeps one; an entry goes with its request).
   */
  inFlight?: Map<string, string>
}

const clock = (time: unknown): string => {
  const date = new Date(typeof time === 'number' ? time : Date.now())
  return date.toISOString().slice(11, 23)
}

const value = (v: unknown): string =>
  typeof v === 'string' && !/\s/.test(v) ? v : JSON.stringify(v)

/**
 * One readable line for one pino JSON line: `12:00:01.234 INFO  [req-1] GET /api/v1/connect/config
 * → 200 (3.1 ms) request completed  key=value …`. An error's stack (an unexpected fault: a bug)
 * follows on the next lines. Anything that is not a JSON object is passed through as it is.
 */
export function formatLogLine(line: string, options: PrettyOptions): string {
  let entry: Record<string, unknown>
  try {
    entry = JSON.parse(line) as Record<string, unknown>
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`
  }
  if (typeof entry !== 'object' || entry === null) return `${line}\n`
  const paint = (code: string, text: string) =>
    options.color ? `\u001b[${code}m${text}\u001b[0m` : text
  const level = LEVELS[entry.level as number] ?? { name: String(entry.level).padEnd(5), color: '0' }
  const parts = [paint('90', clock(entry.time)), paint(level.color, level.name)]
  if (entry.reqId !== undefined) parts.push(paint('90', `[${String(entry.reqId)}]`))
  const reqId = entry.reqId === undefined ? undefined : String(entry.reqId)
  const req = entry.req as { method?: string; url?: string } | undefined
  const res = entry.res as { statusCode?: number } | undefined
  if (req?.method) {
    const request = `${req.method} ${req.url ?? ''}`
    parts.push(request)
    if (reqId !== undefined) options.inFlight?.set(reqId, request)
  } else if (res?.statusCode !== undefined && reqId !== undefined) {
    const request = options.inFlight?.get(reqId)
    if (request !== undefined) parts.push(request)
    options.inFlight?.delete(reqId)
  }
  if (res?.statusCode !== undefined) {
    const status = res.statusCode
    parts.push(paint(status >= 500 ? '31' : status >= 400 ? '33' : '32', `→ ${status}`))
  }
  if (typeof entry.responseTime === 'number')
    parts.push(paint('90', `(${entry.responseTime.toFixed(1)} ms)`))
  if (entry.msg !== undefined) parts.push(String(entry.msg))
  // An error is an object (a thrown Error, serialized) or a string (a reason, as the Redis outage
  // lines log it): both are shown, a string one being the line's only clue.
  const err =
    typeof entry.err === 'string'
      ? { message: entry.err }
      : (entry.err as { message?: string; stack?: string } | undefined)
  const fields = Object.entries(entry)
    .filter(([key]) => !SHOWN.has(key) && key !== 'err')
    .map(([key, v]) => paint('90', `${key}=`) + value(v))
  if (err?.message !== undefined) fields.push(paint('90', 'err=') + value(err.message))
  const head = [...parts, ...fields].join(' ')
  const stack = err?.stack ? `\n${paint('90', err.stack.split('\n').slice(1).join('\n'))}` : ''
  return `${head}${stack}\n`
}

/** A pino destination that writes `formatLogLine` of every line to `out` (a terminal). */
export function createPrettyDestination(
  out: { write(text: string): unknown },
  options: PrettyOptions,
): LogDestination {
  const inFlight = new Map<string, string>()
  return { write: (line: string) => out.write(formatLogLine(line, { ...options, inFlight })) }
}

/**
 * The log format of the CLI: `LOG_FORMAT=json` or `pretty` when set, else pretty lines on a
 * terminal and JSON lines (for a collector) when stdout is piped or redirected.
 */
export function logFormatFor(env: { LOG_FORMAT?: string }, isTty: boolean): 'json' | 'pretty' {
  if (env.LOG_FORMAT === 'json' || env.LOG_FORMAT === 'pretty') return env.LOG_FORMAT
  return isTty ? 'pretty' : 'json'
}
