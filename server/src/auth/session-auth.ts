import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import type { ProjectIndex } from '../config/project-index'
import { ApiError } from '../errors'
import type { SessionRecord } from '../store/types'
import { checkOrigin } from './app-key'
import { bearerToken, hashSessionToken, sessionTokenHashMatches } from './session-token'

/** Hex SHA-256 of the request's `Authorization: Bearer` token; undefined when there is none. */
export function presentedTokenHash(request: FastifyRequest): string | undefined {
  const token = bearerToken(request.headers.authorization)
  return token === undefined ? undefined : hashSessionToken(token)
}

/**
 * Result and verify: the session bearer token is the credential. `X-App-Key` sent alongside is
 * accepted and ignored (old clients sent both); it is never enough alone, because the app key is
 * public (it travels in universal links next to the session id).
 *
 * A missing or wrong token answers exactly as an unknown session does (404 SESSION_NOT_FOUND,
 * same message), so the route tells nobody without the token whether a session id exists.
 */
export function authorizeSession(
  request: FastifyRequest,
  projects: ProjectIndex,
  record: SessionRecord,
  tokenHash: string | undefined,
): void {
  if (tokenHash === undefined || !sessionTokenHashMatches(tokenHash, record.tokenHash)) {
    throw sessionNotFound()
  }
  checkOrigin(request, projects.byId(record.projectId)!)
}

/** The one answer for an unknown session, a wrong or missing credential, and a wrong nonce. */
export const sessionNotFound = (): ApiError => new ApiError('SESSION_NOT_FOUND', 'no such session')

/**
 * The wallet callbacks' proof that the caller got the wallet's universal link: the session's
 * nonce in `X-Session-Nonce`. Compared in constant time (over SHA-256 digests, so lengths never
 * differ); missing or wrong, the answer is `sessionNotFound()`.
 */
export function assertCallbackNonce(record: SessionRecord, presented: string | undefined): void {
  if (typeof presented !== 'string' || presented === '') throw sessionNotFound()
  const given = createHash('sha256').update(presented).digest()
  const expected = createHash('sha256').update(record.nonce).digest()
  if (!timingSafeEqual(given, expected)) throw sessionNotFound()
}
