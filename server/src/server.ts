import type { FastifyInstance } from 'fastify'
import { type AppOptions, buildApp } from './app'

export interface StartOptions extends AppOptions {
  port?: number
  host?: string
  /** How long close() lets in-flight requests run before cutting their connections (default 10 s). */
  shutdownGraceMs?: number
}

/** How often close() looks for keep-alive connections that have just gone idle. */
const IDLE_SWEEP_MS = 50

export interface RunningServer {
  app: FastifyInstance
  /** `http://host:port` as bound (port 0 resolved). */
  url: string
  /**
   * Stops accepting, lets in-flight requests finish (up to `shutdownGraceMs`), closes keep-alive
   * connections as soon as their answer is out, then closes the app (and its own store).
   */
  close(): Promise<void>
}

export async function startServer(options: StartOptions): Promise<RunningServer> {
  const app = await buildApp(options)
  await app
    .listen({ port: options.port ?? 8787, host: options.host ?? '127.0.0.1' })
    // A taken port: what the app started (relay heartbeat, stores it opened) stops with it.
    .catch(async (error: unknown) => {
      await app.close()
      throw error
    })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : options.port
  const host = options.host ?? '127.0.0.1'
  const shownHost = host.includes(':') ? `[${host}]` : host
  const graceMs = options.shutdownGraceMs ?? 10_000
  return { app, url: `http://${shownHost}:${port}`, close: () => closeGracefully(app, graceMs) }
}

async function closeGracefully(app: FastifyInstance, graceMs: number): Promise<void> {
  // Node closes only the connections idle at the moment close() starts; a keep-alive client whose
  // request was in flight would hold the server open until its socket times out.
  const sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS)
  const deadline = setTimeout(() => app.server.closeAllConnections(), graceMs)
  try {
    await app.close()
  } finally {
    clearInterval(sweep)
    clearTimeout(deadline)
  }
}
