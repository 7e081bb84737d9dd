import { API_PREFIX, ROUTES } from 'scope-connect/wire'

/** The token's `iss` (the server) and `aud` (the relay URL). */
export interface RelayEndpoints {
  issuer: string
  audience: string
}

/**
 * From `--public-url` (`http(s)://host[:port][/base]`, the address clients use): the relay URL is
 * the same with `ws(s)://` and the API path. Throws on anything else.
 */
export function publicEndpoints(publicUrl: string): RelayEndpoints {
  let url: URL
  try {
    url = new URL(publicUrl)
  } catch {
    throw new TypeError(`public URL is not a URL: ${publicUrl}`)
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash) {
    throw new TypeError(`public URL must be http(s)://host[:port][/path]: ${publicUrl}`)
  }
  const base = `${url.host}${url.pathname.replace(/\/+$/, '')}`
  return {
    issuer: `${url.protocol}//${base}`,
    audience: `${url.protocol === 'https:' ? 'wss' : 'ws'}://${base}${API_PREFIX}${ROUTES.relay}`,
  }
}

/**
 * Without a public URL: from the request's Host header, as `http://host` and `ws://host/…`. The
 * token request and the upgrade derive them the same way, so they agree; behind a TLS proxy the
 * scheme is not the one clients use, which is why production sets `--public-url`.
 */
export function hostEndpoints(host: string | undefined): RelayEndpoints {
  const name = host || 'localhost'
  return { issuer: `http://${name}`, audience: `ws://${name}${API_PREFIX}${ROUTES.relay}` }
}
