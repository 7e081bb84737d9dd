import type {
  ConnectCallback,
  RejectCallback,
  SignCallback,
  TransactionCallback,
} from 'scope-connect/wire'
import type { AppContext } from '../context'
import { ApiError, fieldError } from '../errors'
import type { SessionRecord } from '../store/types'
import { assertWalletEnabled } from './create'
import { assertLive, commit, loadSession, type SessionPatch } from './records'
import { sameAddress, verifySessionSignature } from './signature'

const conflict = (message: string) => new ApiError('SESSION_STATE_CONFLICT', message)

async function liveSession(ctx: AppContext, sessionId: string): Promise<SessionRecord> {
  const record = await loadSession(ctx, sessionId)
  assertLive(ctx, record)
  return record
}

/** pending → connected. A retry that reports the same wallet and address is answered as success. */
export async function recordConnect(ctx: AppContext, body: ConnectCallback): Promise<void> {
  const record = await liveSession(ctx, body.sessionId)
  const project = ctx.projects.byId(record.projectId)!
  assertWalletEnabled(project, body.walletSlug)
  if (record.walletSlug !== null && record.walletSlug !== body.walletSlug) {
    throw fieldError('walletSlug', `does not match the session's wallet ${record.walletSlug}`)
  }
  if (body.caip2Chain !== record.caip2Chain) {
    throw fieldError('caip2Chain', `does not match the session's chain ${record.caip2Chain}`)
  }
  const adapter = ctx.chains.get(record.caip2Chain)
  if (!adapter) throw new ApiError('UNSUPPORTED_CHAIN', `chain ${record.caip2Chain} is not served`)
  if (!adapter.isValidAddress(body.walletAddress)) {
    throw fieldError('walletAddress', `is not a valid ${adapter.namespace} address`)
  }
  const isSame = (r: SessionRecord | null) =>
    r?.status === 'connected' &&
    r.walletSlug === body.walletSlug &&
    r.walletAddress !== null &&
    sameAddress(adapter.namespace, r.walletAddress, body.walletAddress)
  if (isSame(record)) return
  if (record.status !== 'pending') throw conflict(`cannot connect a ${record.status} session`)
  await commit(
    ctx,
    record,
    { status: 'connected', walletAddress: body.walletAddress, walletSlug: body.walletSlug },
    (current) => (current && isSame(current) ? current : undefined),
  )
}

/** connected → signed, only with a signature over the server's nonce that the server verified. */
export async function recordSignature(ctx: AppContext, body: SignCallback): Promise<void> {
  const record = await liveSession(ctx, body.sessionId)
  if (record.nonceUsed) throw new ApiError('NONCE_USED', 'the session nonce was already signed')
  if (record.status !== 'connected' || record.walletAddress === null) {
    throw conflict(`cannot sign a ${record.status} session: it must be connected first`)
  }
  await verifySessionSignature(ctx, record, {
    address: record.walletAddress,
    signature: body.signature,
    timestamp: body.timestamp,
    ...(body.publicKey === undefined ? {} : { publicKey: body.publicKey }),
  })
  await commitSigned(ctx, record, { status: 'signed', signature: body.signature, nonceUsed: true })
}

/** The nonce is burnt in the same compare-and-set that records `signed`. */
export async function commitSigned(
  ctx: AppContext,
  record: SessionRecord,
  patch: SessionPatch,
): Promise<SessionRecord> {
  return commit(ctx, record, patch, (current) => {
    if (current?.nonceUsed) throw new ApiError('NONCE_USED', 'the session nonce was already signed')
    return undefined
  })
}

/** Sets `txSignature` once, on a `transaction` session that is connected or signed. */
export async function recordTransaction(ctx: AppContext, body: TransactionCallback): Promise<void> {
  const record = await liveSession(ctx, body.sessionId)
  if (record.intent !== 'transaction')
    throw conflict('the session was not created for a transaction')
  if (record.txSignature === body.txSignature) return
  if (record.txSignature !== null) throw conflict('the session already has a transaction signature')
  if (record.status !== 'connected' && record.status !== 'signed') {
    throw conflict(`cannot record a transaction on a ${record.status} session`)
  }
  await commit(ctx, record, { txSignature: body.txSignature }, (current) =>
    current?.txSignature === body.txSignature ? current : undefined,
  )
}

/**
 * `USER_REJECTED` → rejected, any other code → failed. Open sessions only (pending, connected), and a
 * signed `transaction` session whose transaction has not been reported yet.
 */
export async function recordRejection(ctx: AppContext, body: RejectCallback): Promise<void> {
  const record = await liveSession(ctx, body.sessionId)
  const open =
    record.status === 'pending' ||
    record.status === 'connected' ||
    (record.status === 'signed' && record.intent === 'transaction' && record.txSignature === null)
  if (!open) throw conflict(`cannot reject a ${record.status} session`)
  const status = body.errorCode === 'USER_REJECTED' ? 'rejected' : 'failed'
  await commit(ctx, record, { status, errorCode: body.errorCode })
}
