import type { SessionResult, SessionResultResponse, SessionStatus } from 'scope-connect/wire'
import type { SessionRecord } from '../store/types'

/** A session still waiting (pending or connected) at its expiry reads as `expired`; others keep theirs. */
export function effectiveStatus(record: SessionRecord, now: number): SessionStatus {
  const open = record.status === 'pending' || record.status === 'connected'
  return open && now >= record.expiresAt ? 'expired' : record.status
}

export const isExpired = (record: SessionRecord, now: number): boolean => now >= record.expiresAt

/**
 * The result route's answer: GenericSessionResult (the flags mirror the status) plus `expiresAt`.
 * Built as one object literal: it runs on every poll, and spreading a second object costs more.
 */
export function toResultResponse(record: SessionRecord, now: number): SessionResultResponse {
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
    expiresAt: record.expiresAt,
  }
}

/**
 * `JSON.stringify(toResultResponse(record, now))`, byte for byte, given `status` =
 * `effectiveStatus(record, now)`: the poll hot path sends this string and skips building the
 * object and Fastify's serializer. The status needs no escaping (an enum); every other value
 * goes through JSON.stringify, as it would inside the object.
 */
export function toResultJson(record: SessionRecord, status: SessionStatus): string {
  const connected = status === 'connected' || status === 'signed'
  return `{"sessionId":${JSON.stringify(record.sessionId)},"status":"${status}","connected":${connected},"signed":${status === 'signed'},"walletAddress":${jsonOrNull(record.walletAddress)},"signature":${jsonOrNull(record.signature)},"txSignature":${jsonOrNull(record.txSignature)},"errorCode":${jsonOrNull(record.errorCode)},"expiresAt":${JSON.stringify(record.expiresAt)}}`
}

const jsonOrNull = (value: string | null): string =>
  value === null ? 'null' : JSON.stringify(value)

/** GenericSessionResult: the result route's answer without `expiresAt`. */
export function toResult(record: SessionRecord, now: number): SessionResult {
  const { expiresAt: _expiresAt, ...result } = toResultResponse(record, now)
  return result
}
