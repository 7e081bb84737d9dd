import { buildSignedMessageEnvelope, SIGNATURE_TIMESTAMP_TOLERANCE_MS } from 'scope-connect/wire'
import type { AppContext } from '../context'
import { ApiError, fieldError } from '../errors'
import type { SessionRecord } from '../store/types'

export interface SignedClaim {
  /** The address the envelope names (and that must have signed). */
  address: string
  signature: string
  timestamp: number
  publicKey?: string
}

export const sameAddress = (namespace: string, a: string, b: string): boolean =>
  namespace === 'eip155' ? a.toLowerCase() === b.toLowerCase() : a === b

/**
 * Checks a signature over the session envelope the server rebuilds itself (session id and nonce
 * from the record, never from the request). Throws 422 SIGNATURE_INVALID; changes nothing.
 */
export async function verifySessionSignature(
  ctx: AppContext,
  record: SessionRecord,
  claim: SignedClaim,
): Promise<void> {
  const skew = Math.abs(ctx.now() - claim.timestamp)
  if (skew > SIGNATURE_TIMESTAMP_TOLERANCE_MS) {
    throw new ApiError(
      'SIGNATURE_INVALID',
      'the signed timestamp is more than 5 minutes from server time',
    )
  }
  const adapter = ctx.chains.get(record.caip2Chain)
  if (!adapter) throw new ApiError('UNSUPPORTED_CHAIN', `no verifier for ${record.caip2Chain}`)
  let publicKey = claim.publicKey
  if (adapter.namespace === 'solana') {
    if (publicKey === undefined) throw fieldError('publicKey', 'is required on solana')
  } else {
    publicKey = undefined
  }
  if (
    claim.publicKey !== undefined &&
    !sameAddress(adapter.namespace, claim.publicKey, claim.address)
  ) {
    throw new ApiError('SIGNATURE_INVALID', 'publicKey is not the connected wallet address')
  }
  const message = buildSignedMessageEnvelope(
    record.sessionId,
    record.nonce,
    claim.address,
    claim.timestamp,
  )
  const valid = await adapter.verifySignature({
    chainId: record.caip2Chain,
    address: claim.address,
    message,
    signature: claim.signature,
    ...(publicKey === undefined ? {} : { publicKey }),
  })
  if (!valid) {
    throw new ApiError(
      'SIGNATURE_INVALID',
      'the signature does not verify for this session and address',
    )
  }
}
