import type { RelayMailbox } from './mailbox'
import type { RelayServer } from './relay'

/** The relay's Redis: `none` with the in-process mailbox, else whether it answers. */
export type RelayRedisState = 'none' | 'up' | 'down'

/**
 * What `RelayServer.stats()` returns once the relay reports it (branch `relay`). Until then the
 * relay is read through `stats?.()` and what cannot be counted here is left out.
 */
export interface RelayStats {
  sockets: number
  subscriptions: number
  mailboxBytes: number
  mailboxMessages: number
  quotaRefusals: Record<string, number>
  slowConsumerCloses: number
  redis: RelayRedisState
}

export type RelayReport = Partial<RelayStats> &
  Pick<RelayStats, 'sockets' | 'subscriptions' | 'redis'>

/** The relay as health checks and metrics see it. */
export interface RelayStatus {
  report(): Promise<RelayReport>
}

// A topic no client can hold (64 hex digits, all zero): reading it is one HGETALL of nothing.
const PROBE_TOPIC = '0'.repeat(64)

/**
 * The relay's Redis state from its mailbox: `none` in process; on Redis, whether a read answers
 * (the mailbox's commands fail at once while Redis is away: no offline queue, a short timeout).
 * Its pub/sub connection is not asked: the relay's own `stats().redis` covers both once merged.
 */
export function relayRedisState(
  mailbox: Pick<RelayMailbox, 'kind' | 'read'>,
): Promise<RelayRedisState> {
  if (mailbox.kind === 'memory') return Promise.resolve('none')
  return mailbox.read(PROBE_TOPIC).then(
    () => 'up',
    () => 'down',
  )
}

/**
 * The relay's report: its own `stats()` when it has one, else the sockets and subscriptions
 * counted here and the Redis state read from the mailbox.
 */
export function createRelayStatus(
  relay: RelayServer & { stats?(): RelayStats },
  mailbox: Pick<RelayMailbox, 'kind' | 'read'>,
): RelayStatus {
  return {
    async report() {
      const stats = relay.stats?.()
      if (stats) return stats
      return {
        sockets: relay.connections(),
        subscriptions: relay.hub.size().subscriptions,
        redis: await relayRedisState(mailbox),
      }
    },
  }
}
