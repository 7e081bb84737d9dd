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
 */
export function authorizeSession(
  request: FastifyRequest,
  projects: ProjectIndex,
  record: SessionRecord,
  tokenHash: string | undefined,
): void {
  if (tokenHash === undefined) {
    throw new ApiError(
      'INVALID_SESSION_TOKEN',
      'an Authorization: Bearer <sessionToken> is required',
    )
  }
  if (!sessionTokenHashMatches(tokenHash, record.tokenHash)) {
    throw new ApiError('INVALID_SESSION_TOKEN', 'the session token does not match this session')
  }
  checkOrigin(request, projects.byId(record.projectId)!)
}
