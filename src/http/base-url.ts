import { AppError } from '../errors/app-error'

const TRAILING_SLASHES = /\/+$/
/** `/api/v1`, optionally followed by `/connect`, at the end of the path (any trailing slashes are gone). */
const TRAILING_API_PREFIX = /\/api\/v1(\/connect)?$/

/**
 * True for hosts where plain HTTP is allowed: `localhost`, any `*.localhost`, `127.0.0.1` and `[::1]`.
 * Everything else must use HTTPS.
 */
export function isLocalDevelopmentHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '')
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '127.0.0.1' ||
    host === '[::1]' ||
    host === '::1'
  )
}

/**
 * Normalises a backend base URL: trims it, removes trailing slashes and a trailing `/api/v1`
 * (also `/api/v1/` and `/api/v1/connect`), so `https://x.example/api/v1/` becomes `https://x.example`.
 * Query strings and fragments are not allowed.
 *
 * Throws `INVALID_CONFIG` when the value is empty, not an absolute http(s) URL, or uses plain HTTP
 * on a host that is not a local development host (see {@link isLocalDevelopmentHost}).
 */
export function normalizeBaseUrl(baseUrl: unknown): string {
  if (typeof baseUrl !== 'string' || baseUrl.trim() === '') {
    throw new AppError('INVALID_CONFIG', 'baseUrl is required.')
  }
  let url: URL
  try {
    url = new URL(baseUrl.trim())
  } catch {
    throw new AppError('INVALID_CONFIG', 'baseUrl must be an absolute URL.')
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new AppError('INVALID_CONFIG', 'baseUrl must use https (or http on a local host).')
  }
  if (url.protocol === 'http:' && !isLocalDevelopmentHost(url.hostname)) {
    throw new AppError(
      'INVALID_CONFIG',
      `baseUrl must use https; plain http is allowed only for local development hosts, not ${url.hostname}.`,
    )
  }
  if (url.search !== '' || url.hash !== '') {
    throw new AppError('INVALID_CONFIG', 'baseUrl must not carry a query string or fragment.')
  }
  if (url.username !== '' || url.password !== '') {
    throw new AppError('INVALID_CONFIG', 'baseUrl must not carry credentials.')
  }
  const path = url.pathname.replace(TRAILING_SLASHES, '').replace(TRAILING_API_PREFIX, '')
  return `${url.origin}${path.replace(TRAILING_SLASHES, '')}`
}
