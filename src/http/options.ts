import { AppError } from '../errors/app-error'

// Option checks every HTTP client shares, apart from the client itself so a facade can validate
// its options without loading ky and the response schemas.

export type FetchLike = (input: Request | URL | string, init?: RequestInit) => Promise<Response>

/**
 * The fetch to use: `fetchImpl`, else the global one (looked up at call time, so test doubles
 * installed later still apply). Throws `INVALID_CONFIG` when neither exists.
 */
export function resolveFetch(fetchImpl: unknown): FetchLike {
  if (fetchImpl !== undefined && typeof fetchImpl !== 'function') {
    throw new AppError('INVALID_CONFIG', 'fetchImpl must be a function.')
  }
  if (typeof fetchImpl === 'function') return fetchImpl as FetchLike
  if (typeof globalThis.fetch !== 'function') {
    throw new AppError(
      'INVALID_CONFIG',
      'No fetch is available: pass fetchImpl or run where globalThis.fetch exists.',
    )
  }
  return (input, init) => globalThis.fetch(input, init)
}

/** Throws `INVALID_CONFIG` unless `value` is a non-empty string. */
export function requireNonEmpty(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new AppError('INVALID_CONFIG', `${name} is required.`)
  }
  return value
}
