import type { FastifyInstance } from 'fastify'
import { type AppOptions, buildApp } from './app'

export interface StartOptions extends AppOptions {
  port?: number
  host?: string
}

export interface RunningServer {
  app: FastifyInstance
  /** `http://host:port` as bound (port 0 resolved). */
  url: string
  /** Stops accepting, lets in-flight requests finish, then closes the app (and its own store). */
  close(): Promise<void>
}

export async function startServer(options: StartOptions): Promise<RunningServer> {
  const app = await buildApp(options)
  await app.listen({ port: options.port ?? 8787, host: options.host ?? '127.0.0.1' })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : options.port
  const host = options.host ?? '127.0.0.1'
  const shownHost = host.includes(':') ? `[${host}]` : host
  return { app, url: `http://${shownHost}:${port}`, close: () => app.close() }
}
