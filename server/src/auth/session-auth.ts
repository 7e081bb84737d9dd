import type { FastifyRequest } from 'fastify'
import type { ProjectIndex } from '../config/project-index'
import { ApiError } from '../errors'
import type { SessionRecord } from '../store/types'
import { checkOrigin } from './app-key'
import { bearerToken, sessionTokenMatches } from './session-token'

/**
 * Result and verify: the session bearer token is the credential. `X-App-Key` sent alongside is
 * accepted and ignored (old clients sent both); it is never enough alone, because the app key is
 * public (it travels in universal links next to the session id).
 */
export function authorizeSession(
  request: FastifyRequest,
  projects: ProjectIndex,
  record: SessionRecord,
): void {
  const token = bearerToken(request.headers.authorization)
  if (token === undefined) {
    throw new ApiError(
      'INVALID_SESSION_TOKEN',
      'an Authorization: Bearer <sessionToken> is required',
    )
  }
  if (!sessionTokenMatches(token, record.tokenHash)) {
    throw new ApiError('INVALID_SESSION_TOKEN', 'the session token does not match this session')
  }
  checkOrigin(request, projects.byId(record.projectId)!)
}
