import { RELAY_CLOSE_CODES } from 'scope-connect/wire'
import type { WebSocket } from 'ws'
import { type ConnectionDeps, RelayConnection } from './connection'
import { RelayHub } from './hub'
import type { RelayLimits } from './limits'
import type { RelayMailbox } from './mailbox'

export interface RelayServerOptions {
  mailbox: RelayMailbox
  limits: RelayLimits
  now: () => number
  log: ConnectionDeps['log']
}

/** The relay of one instance: its connections, the hub, the heartbeat, per-IP socket counts. */
export interface RelayServer {
  readonly hub: RelayHub
  /**
   * Reserves one socket for the caller's IP key; returns the release function, or null when the
   * key holds `maxSocketsPerIp` open sockets already.
   */
  reserve(ipKey: string): (() => void) | null
  /** Serves an upgraded socket whose token expires at `tokenExpiresAt` (ms epoch). */
  accept(socket: WebSocket, tokenExpiresAt: number): void
  /** Open connections, for tests and metrics. */
  connections(): number
  /** Closes every socket with 1001, waits up to `closeGraceMs` for them to go, cuts the rest. */
  shutdown(): Promise<void>
}

export function createRelayServer(options: RelayServerOptions): RelayServer {
  const { limits } = options
  const hub = new RelayHub(options.mailbox)
  const deps: ConnectionDeps = {
    hub,
    mailbox: options.mailbox,
    limits,
    now: options.now,
    log: options.log,
  }
  const open = new Map<WebSocket, RelayConnection>()
  const socketsPerIp = new Map<string, number>()
  let stopping = false

  const heartbeat = setInterval(() => {
    for (const connection of open.values()) connection.heartbeat()
  }, limits.heartbeatMs)
  heartbeat.unref()

  return {
    hub,

    reserve(ipKey) {
      const count = socketsPerIp.get(ipKey) ?? 0
      if (count >= limits.maxSocketsPerIp) return null
      socketsPerIp.set(ipKey, count + 1)
      let released = false
      return () => {
        if (released) return
        released = true
        const left = (socketsPerIp.get(ipKey) ?? 1) - 1
        if (left <= 0) socketsPerIp.delete(ipKey)
        else socketsPerIp.set(ipKey, left)
      }
    },

    accept(socket, tokenExpiresAt) {
      if (stopping) {
        socket.close(RELAY_CLOSE_CODES.GOING_AWAY, 'server shutting down')
        return
      }
      open.set(socket, new RelayConnection(socket, deps, tokenExpiresAt))
      socket.once('close', () => open.delete(socket))
    },

    connections: () => open.size,

    async shutdown() {
      stopping = true
      clearInterval(heartbeat)
      const sockets = [...open.keys()]
      const closed = sockets.map(
        (socket) =>
          new Promise<void>((resolve) => {
            if (socket.readyState === socket.CLOSED) resolve()
            else socket.once('close', () => resolve())
          }),
      )
      for (const connection of open.values()) {
        connection.close(RELAY_CLOSE_CODES.GOING_AWAY, 'server shutting down')
      }
      let timer: NodeJS.Timeout | undefined
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, limits.closeGraceMs)
      })
      await Promise.race([Promise.all(closed), deadline])
      clearTimeout(timer)
      for (const socket of open.keys()) socket.terminate()
    },
  }
}
