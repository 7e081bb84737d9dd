import { randomBytes } from 'node:crypto'
import {
  parseSignInMessage,
  SIGNATURE_TIMESTAMP_TOLERANCE_MS,
  type SignInMessage,
  type SignInRecord,
} from 'scope-connect/wire'
import { type Hex, isAddress, isHex, recoverMessageAddress } from 'viem'
import type { ProjectConfig } from '../config/projects-schema'
import type { AppContext } from '../context'
import { ApiError, fieldError } from '../errors'
import { assertChainEnabled } from '../sessions/create'

/** How long a sign-in nonce stays good (ms): long enough to read the wallet's prompt. */
export const SIGN_IN_NONCE_TTL_MS = 10 * 60_000

/** Sign-In With Solana's chain names, as CAIP-2 ids (the genesis hash's prefix). */
export const SIWS_CHAINS: Readonly<Record<string, string>> = {
  mainnet: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
  devnet: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
  testnet: 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z',
}

/** A fresh nonce: 16 bytes of the platform CSPRNG as 32 hex digits (EIP-4361 wants letters and digits). */
export const newSignInNonce = (): string => randomBytes(16).toString('hex')

/** The store key of a project's nonce: a nonce is good only for the project that asked for it. */
export const nonceKey = (projectId: string, nonce: string): string => `${projectId}:${nonce}`

/** The CAIP-2 chain of a parsed message. */
export function caip2Of(message: SignInMessage): string {
  if (message.namespace === 'eip155') return `eip155:${message.chainId}`
  const chain = String(message.chainId)
  return chain.startsWith('solana:') ? chain : (SIWS_CHAINS[chain] ?? `solana:${chain}`)
}

const hostOf = (url: string): string | undefined => {
  try {
    return new URL(url).host
  } catch {
    return undefined
  }
}

/**
 * The domains a message may name: the request's `Origin` (a browser cannot forge it), and the
 * project's `allowedOrigins`; neither given, any domain (the app checks it against its own).
 */
function checkDomain(message: SignInMessage, origin: string | undefined, project: ProjectConfig) {
  const expected =
    origin !== undefined
      ? [hostOf(origin)]
      : project.allowedOrigins === undefined
        ? undefined
        : project.allowedOrigins.map(hostOf)
  if (expected && !expected.includes(message.domain)) {
    throw fieldError('message.domain', 'is not the origin this request comes from')
  }
  if (hostOf(message.uri) !== message.domain) {
    throw fieldError('message.uri', "is not on the message's domain")
  }
}

function checkTimes(message: SignInMessage, now: number): void {
  const skew = SIGNATURE_TIMESTAMP_TOLERANCE_MS
  const issuedAt = Date.parse(message.issuedAt)
  if (issuedAt > now + skew) throw fieldError('message.issuedAt', 'is in the future')
  if (issuedAt < now - SIGN_IN_NONCE_TTL_MS - skew) {
    throw fieldError('message.issuedAt', 'is older than a sign-in nonce lives')
  }
  if (message.expirationTime !== undefined && Date.parse(message.expirationTime) <= now) {
    throw fieldError('message.expirationTime', 'has passed')
  }
  if (message.notBefore !== undefined && Date.parse(message.notBefore) > now + skew) {
    throw fieldError('message.notBefore', 'is still to come')
  }
}

/** Local EIP-191 recovery: true when an EOA with `address` signed `text` (no RPC). */
async function signedByEoa(text: string, address: string, signature: string): Promise<boolean> {
  if (!isHex(signature, { strict: true }) || signature.length !== 132) return false
  try {
    const signer = await recoverMessageAddress({ message: text, signature: signature as Hex })
    return signer.toLowerCase() === address.toLowerCase()
  } catch {
    return false
  }
}

/**
 * Verifies a signed sign-in message and answers its record. In order: the text (an EIP-4361 or
 * Sign-In With Solana message, 422 VALIDATION_FAILED naming the field), domain and URI, chain
 * (403 CHAIN_NOT_ENABLED, 422 UNSUPPORTED_CHAIN), issued-at, expiration and not-before (422),
 * the nonce, spent here once and for all (409 NONCE_USED: unknown, expired or used), then the
 * signature (422 SIGNATURE_INVALID): EIP-191 recovered locally, else ERC-1271 / ERC-6492 through
 * the chain's RPC (one `eth_call` at most, and only for a live nonce); ed25519 on Solana.
 */
export async function verifySignIn(
  ctx: AppContext,
  project: ProjectConfig,
  origin: string | undefined,
  body: { message: string; signature: string },
): Promise<SignInRecord> {
  let message: SignInMessage
  try {
    message = parseSignInMessage(body.message)
  } catch (error) {
    const details = (error as { details?: { field: string; reason: string }[] }).details
    const first = details?.[0] ?? { field: 'message', reason: 'is not a sign-in message' }
    throw new ApiError('VALIDATION_FAILED', `${first.field} ${first.reason}`, {
      details: details ?? [first],
    })
  }
  checkDomain(message, origin, project)
  const chainId = caip2Of(message)
  assertChainEnabled(project, chainId)
  const adapter = ctx.chains.get(chainId)
  if (!adapter) throw new ApiError('UNSUPPORTED_CHAIN', `no verifier for ${chainId}`)
  if (message.namespace === 'eip155' && !isAddress(message.address)) {
    throw fieldError('message.address', 'is not an address')
  }
  if (!adapter.isValidAddress(message.address)) {
    throw fieldError('message.address', `is not a valid ${adapter.namespace} address`)
  }
  const now = ctx.now()
  checkTimes(message, now)
  if (!(await ctx.store.takeNonce(nonceKey(project.projectId, message.nonce)))) {
    throw new ApiError('NONCE_USED', 'the nonce is unknown, expired or already used')
  }
  const check = {
    chainId,
    address: message.address,
    message: body.message,
    signature: body.signature,
  }
  let kind: SignInRecord['kind'] = 'eoa'
  let valid: boolean
  if (message.namespace === 'solana') {
    valid = await adapter.verifySignature({ ...check, publicKey: message.address })
  } else if (await signedByEoa(body.message, message.address, body.signature)) {
    valid = true
  } else {
    kind = 'contract'
    valid = await adapter.verifySignature(check)
  }
  if (!valid) {
    throw new ApiError('SIGNATURE_INVALID', 'the signature does not verify for this message')
  }
  const { namespace: _namespace, version: _version, chainId: _chain, ...fields } = message
  return { ...fields, chainId, kind, verifiedAt: now }
}
