import type { SessionResult, SessionResultResponse, SessionStatus } from 'scope-connect/wire'
import type { SessionRecord } from '../store/types'

/** A session still waiting (pending or connected) at its expiry reads as `expired`; others keep theirs. */
export function effectiveStatus(record: SessionRecord, now: number): SessionStatus {
  const open = record.status === 'pending' || record.status === 'connected'
  return open && now >= record.expiresAt ? 'expired' : record.status
}

export const isExpired = (record: SessionRecord, now: number): boolean => now >= record.expiresAt

/** GenericSessionResult: the flags mirror the status. */
export function toResult(record: SessionRecord, now: number): SessionResult {
  const status = effectiveStatus(record, now)
  return {
    sessionId: record.sessionId,
    status,
    connected: status === 'connected' || status === 'signed',
    signed: status === 'signed',
    walletAddress: record.walletAddress,
    signature: record.signature,
    txSignature: record.txSignature,
    errorCode: record.errorCode,
  }
}

export const toResultResponse = (record: SessionRecord, now: number): SessionResultResponse => ({
  ...toResult(record, now),
  expiresAt: record.expiresAt,
})
