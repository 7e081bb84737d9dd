import { RELAY_CLOSE_CODES } from 'scope-connect/wire'
import type { WebSocket } from 'ws'
import {
  type ConnectionDeps,
  type ConnectionGrant,
  countRefusal,
  RelayConnection,
  type RelayCounters,
} from './connection'
import { RelayHub } from './hub'
import type { RelayLimits } from './limits'
import type { RelayMailbox } from './mailbox'

export interface RelayServerOptions {
  mailbox: RelayMailbox
  limits: RelayLimits
  now: () => number
  log: ConnectionDeps['log']
}

/**
 * What an operator watches (the metrics and `/healthz` read it). Names are an interface: keep them.
 * `mailboxBytes` / `mailboxMessages`: what the mailbox holds (with Redis, the shared mailbox as
 * of this instance's last publish or 10 s trim). `quotaRefusals`: publishes refused, by reason
 * (admission.ts). `slowConsumerCloses`: sockets closed 1013 for reading too slowly.
 */
export interface RelayStats {
  sockets: number
  subscriptions: number
  mailboxBytes: number
  mailboxMessages: number
  quotaRefusals: Record<string, number>
  /** Every refusal by reason (`RelayCounters.refusals`): quotas, store away, caps. */
  refusals: Record<string, number>
  slowConsumerCloses: number
  redis: 'none' | 'up' | 'down'
  /** Outages of the relay's Redis since start, each once (0 in process). */
  redisOutages: number
}

/** The relay of one instance: its connections, the hub, the heartbeat, per-IP socket counts. */
export interface RelayServer {
  readonly hub: RelayHub
  /**
   * Reserves one socket for the caller's IP key; returns the release function, or null when the
   * key holds `maxSocketsPerIp` open sockets already.
   */
  reserve(ipKey: string): (() => void) | null
  /** Serves an upgraded socket for the token's grant (expiry, app key, subject). */
  accept(socket: WebSocket, grant: ConnectionGrant): void
  /** Open connections, for tests and metrics. */
  connections(): number
  stats(): RelayStats
  /** Closes every socket with 1001, waits up to `closeGraceMs` for them to go, cuts the rest. */
  shutdown(): Promise<void>
}

export function createRelayServer(options: RelayServerOptions): RelayServer {
  const { limits } = options
  const hub = new RelayHub(options.mailbox)
  const counters: RelayCounters = {
    quotaRefusals: {
      topicFull: 0,
      publisherShare: 0,
      sourceMessages: 0,
      sourceBytes: 0,
      appMessages: 0,
      appBytes: 0,
      mailboxBytes: 0,
    },
    refusals: {},
    slowConsumerCloses: 0,
  }
  const deps: ConnectionDeps = {
    counters,
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
      if (count >= limits.maxSocketsPerIp) {
        countRefusal(counters, 'socketsPerIp')
        return null
      }
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

    accept(socket, grant) {
      if (stopping) {
        socket.close(RELAY_CLOSE_CODES.GOING_AWAY, 'server shutting down')
        return
      }
      open.set(socket, new RelayConnection(socket, deps, grant))
      socket.once('close', () => open.delete(socket))
    },

    connections: () => open.size,

    stats() {
      const totals = options.mailbox.totals()
      return {
        sockets: open.size,
        subscriptions: hub.size().subscriptions,
        mailboxBytes: totals.bytes,
        mailboxMessages: totals.messages,
        quotaRefusals: { ...counters.quotaRefusals },
        refusals: { ...counters.refusals },
        slowConsumerCloses: counters.slowConsumerCloses,
        redis: options.mailbox.backend(),
        redisOutages: options.mailbox.outages?.().outages ?? 0,
      }
    },

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
