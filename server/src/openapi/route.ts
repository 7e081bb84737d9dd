import type { FastifyInstance } from 'fastify'
import { API_PREFIX } from 'scope-connect/wire'
import { buildOpenApiDocument } from './document'

export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`

export function registerOpenApiRoute(app: FastifyInstance): void {
  let cached: string | undefined
  app.get(OPENAPI_PATH, async (_request, reply) => {
    cached ??= JSON.stringify(buildOpenApiDocument())
    return reply.type('application/json; charset=utf-8').send(cached)
  })
}
