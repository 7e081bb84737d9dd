import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'

/**
 * On close, cuts the connections that carry no request: Node's `closeIdleConnections` (Fastify's
 * default at close) leaves a connection that never sent one, and `app.close()` would wait for its
 * client to drop it (undici opens such a connection right after a request it aborted, e.g. a
 * long-poll whose Client went away, and keeps it 4 s; other clients longer). Requests in flight
 * finish as before (a long-poll is answered at `preClose`); upgraded connections are left alone.
 */
export function closeUnusedConnectionsOnClose(app: FastifyInstance): void {
  /** Each open connection and its requests not yet answered. */
  const open = new Map<Socket, number>()
  app.server.on('connection', (socket: Socket) => {
    open.set(socket, 0)
    socket.once('close', () => open.delete(socket))
  })
  // An upgraded connection (the relay's WebSocket) is its route's to close, not this sweep's.
  app.server.on('upgrade', (_request: unknown, socket: Socket) => open.delete(socket))
  app.server.on('request', (request: { socket: Socket }, response: NodeJS.EventEmitter) => {
    const socket = request.socket
    if (!open.has(socket)) return
    open.set(socket, (open.get(socket) ?? 0) + 1)
    response.once('close', () => {
      if (open.has(socket)) open.set(socket, Math.max(0, (open.get(socket) ?? 1) - 1))
    })
  })
  app.addHook('preClose', async () => {
    for (const [socket, requests] of open) if (requests === 0) socket.destroy()
  })
}
