import { AppError } from '../errors'
import {
  UNIVERSAL_LINK_METHODS,
  UNIVERSAL_LINK_PARAMS,
  UNIVERSAL_LINK_VERSION,
  type UniversalLinkMethod,
} from './params'

/**
 * What `buildUniversalLinkUrl` puts on the wallet's link. There is deliberately no session-token
 * field: the token stays in the dApp (it authenticates result lookups); the wallet needs none.
 */
export interface UniversalLinkInputs {
  sessionId: string
  nonce: string
  /** CAIP-2 chain id, e.g. `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp`. */
  chainId: string
  /** Backend base URL the wallet posts its callbacks to (absolute http: or https:). */
  callbackUrl: string
  method: UniversalLinkMethod
  /** base64url; required for `signTransaction` (the serialized transaction). */
  payload?: string
  /** Where the wallet sends the user back (absolute http: or https:). */
  returnUrl?: string
  dappName?: string
  /** The dApp's public client identifier. */
  appKey?: string
}

// Same shape as the wire's Caip2Schema, kept local so this function bundles without zod.
const CAIP2 = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/
const BASE64URL = /^[A-Za-z0-9_-]+$/
const ABSOLUTE_HTTPS = /^https:\/\//i

function invalid(field: string, reason: string): AppError {
  return new AppError('INVALID_CONFIG', `Invalid universal link input (${field}).`, {
    details: [{ field, reason }],
  })
}

function parseUrl(value: string): URL | null {
  try {
    return new URL(value)
  } catch {
    return null
  }
}

function requireText(field: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw invalid(field, 'must be a non-empty string')
  }
  return value
}

function optionalText(field: string, value: unknown): string | undefined {
  if (value === undefined) return undefined
  return requireText(field, value)
}

function requireHttpUrl(field: string, value: unknown): string {
  const text = requireText(field, value)
  const url = parseUrl(text)
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.host) {
    throw invalid(field, 'must be an absolute http: or https: URL')
  }
  return text
}

/**
 * Adds the standard `sc*` parameters to a wallet's universal link: `scVersion=1`, `scSessionId`,
 * `scNonce`, `scChain`, `scMethod`, `scCallback`, then `scPayload`, `scReturnUrl`, `scDappName`,
 * `scAppKey` when given. The link's own path, query (byte for byte) and fragment are kept; an
 * `sc*` parameter it already carries is replaced. Values are percent-encoded with
 * `encodeURIComponent` (a space is `%20`, never `+`), which every query decoder reads back exactly. Fields other than those of `UniversalLinkInputs` are ignored, so a
 * session token passed in by mistake never reaches the URL.
 *
 * @throws AppError `INVALID_CONFIG` (with `details[0].field`) when `universalLink` is not an absolute
 * `https://` URL (http, relative, `javascript:`, unparseable), when `callbackUrl` or `returnUrl` is not
 * an absolute http(s) URL, when `sessionId`, `nonce`, `dappName` or `appKey` is empty or not a string,
 * when `chainId` is not CAIP-2, when `method` is unknown, or when `payload` is not base64url or is
 * missing for `signTransaction`.
 */
export function buildUniversalLinkUrl(universalLink: string, inputs: UniversalLinkInputs): string {
  const link = typeof universalLink === 'string' ? universalLink : ''
  const url = ABSOLUTE_HTTPS.test(link) ? parseUrl(link) : null
  if (url === null || url.protocol !== 'https:' || !url.host) {
    throw invalid('universalLink', 'must be an absolute https:// URL')
  }
  if (typeof inputs !== 'object' || inputs === null) {
    throw invalid('inputs', 'must be an object')
  }
  const sessionId = requireText('sessionId', inputs.sessionId)
  const nonce = requireText('nonce', inputs.nonce)
  if (typeof inputs.chainId !== 'string' || !CAIP2.test(inputs.chainId)) {
    throw invalid('chainId', 'must be a CAIP-2 chain id, e.g. eip155:1')
  }
  const callbackUrl = requireHttpUrl('callbackUrl', inputs.callbackUrl)
  if (!UNIVERSAL_LINK_METHODS.includes(inputs.method)) {
    throw invalid('method', `must be one of ${UNIVERSAL_LINK_METHODS.join(', ')}`)
  }
  const payload = inputs.payload
  if (payload !== undefined && (typeof payload !== 'string' || !BASE64URL.test(payload))) {
    throw invalid('payload', 'must be a non-empty base64url string')
  }
  if (inputs.method === 'signTransaction' && payload === undefined) {
    throw invalid('payload', 'is required for signTransaction')
  }
  const returnUrl =
    inputs.returnUrl === undefined ? undefined : requireHttpUrl('returnUrl', inputs.returnUrl)
  const dappName = optionalText('dappName', inputs.dappName)
  const appKey = optionalText('appKey', inputs.appKey)

  const P = UNIVERSAL_LINK_PARAMS
  const entries: Array<[string, string | undefined]> = [
    [P.version, String(UNIVERSAL_LINK_VERSION)],
    [P.sessionId, sessionId],
    [P.nonce, nonce],
    [P.chain, inputs.chainId],
    [P.method, inputs.method],
    [P.callback, callbackUrl],
    [P.payload, payload],
    [P.returnUrl, returnUrl],
    [P.dappName, dappName],
    [P.appKey, appKey],
  ]
  const ours: readonly string[] = Object.values(P)
  // The link's own parameters are kept byte for byte (no form re-encoding), except any `sc*` name
  // of ours, which is dropped so the link cannot carry a second, conflicting value.
  const kept = url.search
    .slice(1)
    .split('&')
    .filter((segment) => segment !== '' && !ours.includes(paramName(segment)))
  const added = entries
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
  url.search = `?${[...kept, ...added].join('&')}`
  return url.toString()
}

/** The decoded name of one raw `name=value` query segment. */
function paramName(segment: string): string {
  const eq = segment.indexOf('=')
  const raw = (eq < 0 ? segment : segment.slice(0, eq)).replace(/\+/g, ' ')
  try {
    return decodeURIComponent(raw)
  } catch {
    return raw
  }
}
