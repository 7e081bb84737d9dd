import { hash, randomBytes } from 'node:crypto'
import { ed25519 } from '@noble/curves/ed25519.js'
import { base64urlnopad } from '@scure/base'

/**
 * Relay tokens: compact JWS (RFC 7515) with `alg: EdDSA` over Ed25519 (RFC 8037). The header
 * names the key (`kid`), so several keys can verify while one signs (rotation). Claims: `iss` the
 * server, `sub` a random client id, `aud` the relay URL, `iat` and `exp` in seconds, and `app`
 * the app key the grant was issued to (the relay's storage quotas are per app key).
 */

export interface RelayTokenClaims {
  iss: string
  sub: string
  aud: string
  iat: number
  exp: number
  /** The app key of the grant; absent only in tokens of servers before quotas. */
  app?: string
}

export interface RelayTokenGrant {
  token: string
  /** ms epoch (`exp` × 1000). */
  expiresAt: number
}

/** Why a presented token was refused; the message goes into the 401 body. */
export class RelayTokenError extends Error {
  override readonly name = 'RelayTokenError'
  constructor(
    readonly reason:
      | 'missing'
      | 'malformed'
      | 'unknown-key'
      | 'bad-signature'
      | 'expired'
      | 'claims',
    message: string,
  ) {
    super(message)
  }
}

export interface RelayTokenSigner {
  /** Signs a grant for `audience` (the relay URL), issued by `issuer`, valid `ttlSeconds`. */
  issue(claims: { issuer: string; audience: string; app?: string }): RelayTokenGrant
  /**
   * The token's claims when its signature is one of ours, `exp` is still ahead of `now` and
   * `iss`/`aud` are the expected ones; throws RelayTokenError otherwise.
   */
  verify(token: unknown, expected: { issuer: string; audience: string }): RelayTokenClaims
}

export interface RelayTokenSignerOptions {
  /** 32-byte Ed25519 seeds; the first signs, every one verifies. At least one. */
  seeds: Uint8Array[]
  ttlSeconds: number
  now: () => number
}

const MAX_TOKEN_LENGTH = 2048

interface VerifyingKey {
  kid: string
  publicKey: Uint8Array
}

export function createRelayTokenSigner(options: RelayTokenSignerOptions): RelayTokenSigner {
  const [signingSeed] = options.seeds
  if (!signingSeed) throw new TypeError('relay token signer: at least one key')
  const keys = new Map<string, VerifyingKey>()
  for (const seed of options.seeds) {
    if (seed.length !== 32) throw new TypeError('relay signing key: 32 bytes expected')
    const publicKey = ed25519.getPublicKey(seed)
    const kid = keyId(publicKey)
    keys.set(kid, { kid, publicKey })
  }
  const signingKid = keyId(ed25519.getPublicKey(signingSeed))
  const header = encodeJson({ alg: 'EdDSA', typ: 'JWT', kid: signingKid })

  return {
    issue({ issuer, audience, app }) {
      const iat = Math.floor(options.now() / 1000)
      const claims: RelayTokenClaims = {
        iss: issuer,
        sub: base64urlnopad.encode(randomBytes(16)),
        aud: audience,
        iat,
        exp: iat + options.ttlSeconds,
        ...(app === undefined ? {} : { app }),
      }
      const signingInput = `${header}.${encodeJson(claims)}`
      const signature = ed25519.sign(new TextEncoder().encode(signingInput), signingSeed)
      return {
        token: `${signingInput}.${base64urlnopad.encode(signature)}`,
        expiresAt: claims.exp * 1000,
      }
    },

    verify(token, expected) {
      if (typeof token !== 'string' || token === '') {
        throw new RelayTokenError('missing', 'the relay token is missing (query parameter token)')
      }
      const parts = token.length <= MAX_TOKEN_LENGTH ? token.split('.') : []
      if (parts.length !== 3) throw malformed()
      const [headerPart, claimsPart, signaturePart] = parts as [string, string, string]
      const head = decodeJson(headerPart)
      if (head?.alg !== 'EdDSA' || typeof head.kid !== 'string') throw malformed()
      const key = keys.get(head.kid)
      if (!key) throw new RelayTokenError('unknown-key', 'the relay token was not signed here')
      const signature = decodeBytes(signaturePart)
      const signingInput = new TextEncoder().encode(`${headerPart}.${claimsPart}`)
      // Strict RFC 8032 verification: a token is a credential, not a consensus object.
      if (
        signature?.length !== 64 ||
        !ed25519.verify(signature, signingInput, key.publicKey, { zip215: false })
      ) {
        throw new RelayTokenError('bad-signature', 'the relay token signature is invalid')
      }
      const claims = decodeJson(claimsPart)
      if (!isClaims(claims)) throw malformed()
      if (options.now() >= claims.exp * 1000) {
        throw new RelayTokenError('expired', 'the relay token has expired; request a new one')
      }
      if (claims.iss !== expected.issuer || claims.aud !== expected.audience) {
        throw new RelayTokenError('claims', 'the relay token was issued for another relay')
      }
      return claims
    },
  }
}

/**
 * Parses `--relay-key` / `RELAY_SIGNING_KEY`: one or more 32-byte Ed25519 seeds in base64url
 * (padding optional), comma-separated; the first signs, the others still verify (rotation).
 */
export function parseRelaySigningKeys(text: string): Uint8Array[] {
  const entries = text
    .split(',')
    .map((entry) => entry.trim().replace(/=+$/, ''))
    .filter((entry) => entry !== '')
  if (entries.length === 0) throw new Error('relay signing key: empty')
  return entries.map((entry, index) => {
    let seed: Uint8Array
    try {
      seed = base64urlnopad.decode(entry)
    } catch {
      throw new Error(`relay signing key ${index + 1}: not base64url`)
    }
    if (seed.length !== 32) {
      throw new Error(`relay signing key ${index + 1}: ${seed.length} bytes, expected 32`)
    }
    return seed
  })
}

/** A fresh random seed (the embedded default when no key is configured). */
export function generateRelaySigningKey(): Uint8Array {
  return new Uint8Array(randomBytes(32))
}

/** base64url of the first 8 bytes of SHA-256(public key): names the key without revealing it. */
function keyId(publicKey: Uint8Array): string {
  return base64urlnopad.encode(hash('sha256', publicKey, 'buffer').subarray(0, 8))
}

const malformed = () => new RelayTokenError('malformed', 'the relay token is malformed')

function encodeJson(value: object): string {
  return base64urlnopad.encode(new TextEncoder().encode(JSON.stringify(value)))
}

function decodeBytes(part: string): Uint8Array | undefined {
  try {
    return base64urlnopad.decode(part)
  } catch {
    return undefined
  }
}

function decodeJson(part: string): Record<string, unknown> | undefined {
  const bytes = decodeBytes(part)
  if (!bytes) return undefined
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes))
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

function isClaims(value: unknown): value is RelayTokenClaims {
  const claims = value as Partial<Record<keyof RelayTokenClaims, unknown>> | undefined
  return (
    claims !== undefined &&
    typeof claims.iss === 'string' &&
    typeof claims.sub === 'string' &&
    typeof claims.aud === 'string' &&
    Number.isSafeInteger(claims.iat) &&
    Number.isSafeInteger(claims.exp) &&
    (claims.app === undefined || (typeof claims.app === 'string' && /^\S+$/.test(claims.app)))
  )
}
