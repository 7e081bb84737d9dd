import { requireSnapshot } from '../shared/snapshot-argument'
import type { ClientSnapshot } from './client.view'

/**
 * What a traversal of the root chart (`getShortestPaths`, `getAdjacencyMap` from `xstate/graph`)
 * compares two snapshots by: the state and what the view shows, never the numbers that only count
 * flows (`flow`, the outcome's and the deadline's flow, deadline times), so the state space is
 * finite and every run of a traversal finds the same paths. Pass it as `serializeState`.
 * @throws `INVALID_CONFIG` when `snapshot` is not an actor snapshot.
 */
export function serializeClientSnapshot(snapshot: ClientSnapshot): string {
  requireSnapshot(snapshot, 'serializeClientSnapshot: snapshot')
  const { context } = snapshot
  return JSON.stringify({
    value: snapshot.value,
    pending: context.pending,
    error: context.error?.code ?? null,
    connected: context.connection ? 1 : 0,
    kind: context.connector?.kind ?? null,
    request: context.relay?.request ? 1 : 0,
    uri: context.relay?.uri ? 1 : 0,
    reads: Object.keys(snapshot.children).some((id) => id.startsWith('read.')) ? 1 : 0,
  })
}
