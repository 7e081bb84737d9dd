import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { createServer, type Socket } from 'node:net'

export interface BlackHole {
  url: string
  close(): Promise<void>
}

/** A loopback TCP server that accepts connections and never answers: upstream timeouts, for real. */
export async function startBlackHole(): Promise<BlackHole> {
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    socket.resume()
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      for (const socket of sockets) socket.destroy()
      server.close()
      await once(server, 'close')
    },
  }
}

/** A port that was just free and now has no listener: connection refused. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  server.close()
  await once(server, 'close')
  return `http://127.0.0.1:${port}`
}
