import type { SnapshotFrom } from 'xstate'
import type { RelayStatus } from '../../src/relay/client/status'
import type { ErrorData } from '../shared/error-data'
import { requireSnapshot } from '../shared/snapshot-argument'
import type { RelayConnectionMachine } from './relay-connection.machine'

/** A snapshot of the relay-connection machine, as `toRelayConnectionView` reads it. */
export type RelayConnectionSnapshot = SnapshotFrom<RelayConnectionMachine>

/** What a UI or the relay client reads of a relay connection: its status, derived from the state. */
export interface RelayConnectionView {
  status: RelayStatus
  /** The reconnect attempt about to run (reconnecting), when it counts one. */
  attempt?: number
  /** Why the connection is reconnecting or offline. */
  error?: ErrorData
  /** Closed for good (`close()`): nothing will connect it again. */
  closed: boolean
}

/**
 * What a UI or the relay client reads of a relay-connection snapshot: its status, the reconnect
 * attempt, the error and whether it is closed for good (no state names to match).
 * @throws `INVALID_CONFIG` when `snapshot` is not an actor snapshot (`getSnapshot()`).
 */
export function toRelayConnectionView(snapshot: RelayConnectionSnapshot): RelayConnectionView {
  requireSnapshot(snapshot, 'toRelayConnectionView: snapshot')
  // Stopped by its host (the pairing ended) is as closed as `close()`.
  const closed = snapshot.matches('closed') || snapshot.status === 'stopped'
  const status: RelayStatus = closed
    ? 'offline'
    : snapshot.matches('online')
      ? 'online'
      : snapshot.matches('connecting')
        ? 'connecting'
        : snapshot.matches('reconnecting')
          ? 'reconnecting'
          : snapshot.matches('offline')
            ? 'offline'
            : 'idle'
  const { attempt, error } = snapshot.context
  return {
    status,
    ...(status === 'reconnecting' && attempt > 0 ? { attempt } : {}),
    ...((status === 'reconnecting' || status === 'offline') && error !== null ? { error } : {}),
    closed,
  }
}
