import { createHash } from 'node:crypto'

/**
 * How a session id appears in logs: `s:` and 12 hex digits of its SHA-256. Enough to follow one
 * session through the log lines and to find it from an id you hold, never enough to act on it
 * (the id travels in universal links and a log reader must not be able to use it).
 */
export function sessionLogId(sessionId: string): string {
  return `s:${createHash('sha256').update(sessionId).digest('hex').slice(0, 12)}`
}

/**
 * The query parameters whose values are logged: the routes' own, none of them a credential or an
 * identifier. Every other value is `[redacted]` whatever its spelling (`?sessionToken=`,
 * `?Token=`, `?%74oken=`, `?nonce=` …): a deny-list of secret names always misses one.
 */
const LOGGED_QUERY = new Set(['chainid', 'tokenaddress', 'decimals', 'waitms'])

/** A parameter name short and plain enough to be a name, not a credential sent as a bare key. */
const PLAIN_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,31}$/

/** `/sessions/<id>` in a path: whatever follows is a session id, however short. */
const AFTER_SESSIONS = 'sessions'

/**
 * A path segment that may be an identifier (a session id, a token, a hex or base58 string): at
 * least 16 characters, or at least 8 with a digit in them. No route word comes near: the longest
 * is `transactions`, and `v1` is the only one with a digit.
 */
function looksLikeId(segment: string): boolean {
  return segment.length >= 16 || (segment.length >= 8 && /\d/.test(segment))
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return text
  }
}

function loggedPath(path: string): string {
  const segments = path.split('/')
  for (let i = 1; i < segments.length; i++) {
    const decoded = decode(segments[i]!)
    if (segments[i - 1] === AFTER_SESSIONS || looksLikeId(decoded)) {
      if (decoded !== '') segments[i] = sessionLogId(decoded)
    }
  }
  return segments.join('/')
}

function loggedQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      if (pair === '') return pair
      const equals = pair.indexOf('=')
      const name = decode(equals === -1 ? pair : pair.slice(0, equals))
      if (LOGGED_QUERY.has(name.toLowerCase())) return pair
      return PLAIN_NAME.test(name) && !looksLikeId(name) ? `${name}=[redacted]` : '[redacted]'
    })
    .join('&')
}

/**
 * A request URL as logged: no raw identifier in the path (session ids and anything that looks
 * like an id become `sessionLogId`, on unknown routes too) and only allow-listed query values
 * (names compared decoded and case-insensitively; the rest `[redacted]`).
 */
export function loggedUrl(url: string): string {
  const mark = url.search(/[?#]/)
  if (mark === -1) return loggedPath(url)
  const path = loggedPath(url.slice(0, mark))
  if (url[mark] === '#') return path
  const hash = url.indexOf('#', mark)
  return `${path}?${loggedQuery(url.slice(mark + 1, hash === -1 ? undefined : hash))}`
}
