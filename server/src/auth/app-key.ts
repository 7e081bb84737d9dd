import type { FastifyRequest } from 'fastify'
import { APP_KEY_HEADER } from 'scope-connect/wire'
import { allowsOrigin, type ProjectIndex } from '../config/project-index'
import type { ProjectConfig } from '../config/projects-schema'
import { ApiError } from '../errors'

export function appKeyOf(request: FastifyRequest): string | undefined {
  const value = request.headers[APP_KEY_HEADER]
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** Refuses a request whose `Origin` the project does not list (no Origin: not a browser, allowed). */
export function checkOrigin(request: FastifyRequest, project: ProjectConfig): void {
  const origin = request.headers.origin
  if (typeof origin === 'string' && !allowsOrigin(project, origin)) {
    throw new ApiError('ORIGIN_NOT_ALLOWED', `origin ${origin} is not allowed for this project`)
  }
}

/** The project of the request's `X-App-Key`, checked before any counter is touched. */
export function requireProject(request: FastifyRequest, projects: ProjectIndex): ProjectConfig {
  const appKey = appKeyOf(request)
  if (appKey === undefined) throw new ApiError('MISSING_APP_KEY', 'the X-App-Key header is missing')
  const project = projects.byAppKey(appKey)
  if (!project) throw new ApiError('INVALID_APP_KEY', 'the X-App-Key is not a known app key')
  checkOrigin(request, project)
  return project
}
