import type {
  ConnectCallback,
  RejectCallback,
  SignCallback,
  TransactionCallback,
} from 'scope-connect/wire'
import { assertCallbackNonce } from '../auth/session-auth'
import type { AppContext } from '../context'
import { ApiError, fieldError } from '../errors'
import type { SessionRecord } from '../store/types'
import { assertWalletEnabled } from './create'
import { assertLive, commit, loadSession, type SessionPatch } from './records'
import { sameAddress, verifySessionSignature } from './signature'

const conflict = (message: string) => new ApiError('SESSION_STATE_CONFLICT', message)

/**
 * The session a callback names, once the caller showed its nonce (`X-Session-Nonce`): an unknown
 * session and a missing or wrong nonce are the same 404; then 410 when it expired.
 */
async function boundSession(
  ctx: AppContext,
  sessionId: string,
  nonce: string | undefined,
): Promise<SessionRecord> {
  const record = await loadSession(ctx, sessionId)
  assertCallbackNonce(record, nonce)
  assertLive(ctx, record)
  return record
}

/**
 * pending → connected. Idempotent: the same report again (same wallet and address) is a success
 * while the session is connected or has gone on to signed; any other report once the session
 * left `pending` is 409.
 */
export async function recordConnect(
  ctx: AppContext,
  body: ConnectCallback,
  nonce: string | undefined,
): Promise<void> {
  const record = await boundSession(ctx, body.sessionId, nonce)
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
    (r?.status === 'connected' || r?.status === 'signed') &&
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

/** The session already holds exactly this signature: a retry of the callback that recorded it. */
export const holdsSignature = (record: SessionRecord | null, signature: string) =>
  record?.status === 'signed' && record.signature === signature

/**
 * connected → signed, only with a signature over the server's nonce that the server verified.
 * Idempotent: the signature that signed the session, posted again (a wallet retrying after a
 * lost answer or a 503 whose write landed), is 204 again; another signature is 409 NONCE_USED.
 */
export async function recordSignature(
  ctx: AppContext,
  body: SignCallback,
  nonce: string | undefined,
): Promise<void> {
  const record = await boundSession(ctx, body.sessionId, nonce)
  if (holdsSignature(record, body.signature)) return
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

/**
 * The nonce is burnt in the same compare-and-set that records `signed`. Of two racing requests
 * with the same signature both succeed (the loser finds its own signature recorded); with
 * different ones the loser gets 409 NONCE_USED.
 */
export async function commitSigned(
  ctx: AppContext,
  record: SessionRecord,
  patch: SessionPatch & { signature: string },
): Promise<SessionRecord> {
  return commit(ctx, record, patch, (current) => {
    if (current && holdsSignature(current, patch.signature)) return current
    if (current?.nonceUsed) throw new ApiError('NONCE_USED', 'the session nonce was already signed')
    return undefined
  })
}

/** Sets `txSignature` once, on a `transaction` session that is connected or signed (idempotent). */
export async function recordTransaction(
  ctx: AppContext,
  body: TransactionCallback,
  nonce: string | undefined,
): Promise<void> {
  const record = await boundSession(ctx, body.sessionId, nonce)
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
 * signed `transaction` session whose transaction has not been reported yet. Idempotent: the same
 * code again on the session it ended is 204; anything else on a closed session is 409.
 */
export async function recordRejection(
  ctx: AppContext,
  body: RejectCallback,
  nonce: string | undefined,
): Promise<void> {
  const record = await boundSession(ctx, body.sessionId, nonce)
  const status = body.errorCode === 'USER_REJECTED' ? 'rejected' : 'failed'
  const isSame = (r: SessionRecord | null) => r?.status === status && r.errorCode === body.errorCode
  if (isSame(record)) return
  const open =
    record.status === 'pending' ||
    record.status === 'connected' ||
    (record.status === 'signed' && record.intent === 'transaction' && record.txSignature === null)
  if (!open) throw conflict(`cannot reject a ${record.status} session`)
  await commit(ctx, record, { status, errorCode: body.errorCode }, (current) =>
    current && isSame(current) ? current : undefined,
  )
}
