import type { SessionResult, VerifyRequest } from 'scope-connect/wire'
import type { AppContext } from '../context'
import { ApiError, fieldError } from '../errors'
import type { SessionRecord } from '../store/types'
import { commitSigned, holdsSignature } from './callbacks'
import { assertLive } from './records'
import { sameAddress, verifySessionSignature } from './signature'
import { toResult } from './view'

/**
 * The dApp-driven check (desktop: the injected wallet signed the envelope with personal_sign).
 * A pending session is connected and signed in one compare-and-set; a connected one must name the
 * same address. Idempotent: the signature that signed the session, sent again, answers 200 with
 * the result.
 */
export async function verifyBySession(
  ctx: AppContext,
  record: SessionRecord,
  body: VerifyRequest,
): Promise<SessionResult> {
  assertLive(ctx, record)
  if (holdsSignature(record, body.signature)) return toResult(record, ctx.now())
  if (record.nonceUsed) throw new ApiError('NONCE_USED', 'the session nonce was already signed')
  const adapter = ctx.chains.get(record.caip2Chain)
  if (!adapter) throw new ApiError('UNSUPPORTED_CHAIN', `chain ${record.caip2Chain} is not served`)
  if (!adapter.isValidAddress(body.walletAddress)) {
    throw fieldError('walletAddress', `is not a valid ${adapter.namespace} address`)
  }
  if (record.status === 'connected') {
    const connected = record.walletAddress ?? ''
    if (!sameAddress(adapter.namespace, connected, body.walletAddress)) {
      throw new ApiError('SESSION_STATE_CONFLICT', 'the session is connected to another address')
    }
  } else if (record.status !== 'pending') {
    throw new ApiError('SESSION_STATE_CONFLICT', `cannot verify a ${record.status} session`)
  }
  await verifySessionSignature(ctx, record, {
    address: body.walletAddress,
    signature: body.signature,
    timestamp: body.timestamp,
    // Solana signs with the address's own key.
    ...(adapter.namespace === 'solana' ? { publicKey: body.walletAddress } : {}),
  })
  const updated = await commitSigned(ctx, record, {
    status: 'signed',
    walletAddress: record.walletAddress ?? body.walletAddress,
    signature: body.signature,
    nonceUsed: true,
  })
  return toResult(updated, ctx.now())
}
