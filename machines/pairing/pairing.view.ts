import type { SnapshotFrom } from 'xstate'
import type { ErrorData } from '../shared/error-data'
import { requireSnapshot } from '../shared/snapshot-argument'
import type { PairingMachine } from './pairing.machine'
import type { PairedSessionData, PairingFinalStatus, RelayConnectivity } from './pairing.types'

/** A snapshot of the pairing machine, as `toPairingView` reads it. */
export type PairingMachineSnapshot = SnapshotFrom<PairingMachine>

/**
 * What a UI or the pairing flow reads of a pairing actor, so none of them matches a state name:
 * `pairing` until the keys are settled, `paired` (`ending` while the delete goes out), `ended`
 * with the final status.
 */
export interface PairingView {
  phase: 'pairing' | 'paired' | 'ending' | 'ended'
  /** The settled session, while paired (and in the final state's context). */
  session: PairedSessionData | null
  /** A request or ping is in flight (more may wait in the queue). */
  busy: boolean
  connectivity: RelayConnectivity
  /** How it ended (`ended` only). */
  outcome: PairingFinalStatus | null
  error: ErrorData | null
}

/**
 * What a UI reads of a pairing snapshot: its phase, session, connectivity, whether busy, outcome
 * and error (no state names to match).
 * @throws `INVALID_CONFIG` when `snapshot` is not an actor snapshot (`getSnapshot()`).
 */
export function toPairingView(snapshot: PairingMachineSnapshot): PairingView {
  requireSnapshot(snapshot, 'toPairingView: snapshot')
  const { context } = snapshot
  // A stopped actor (a page unload) keeps its last state: still paired, not ended.
  const active = snapshot.status === 'active' || snapshot.status === 'stopped'
  const paired = active && snapshot.matches({ active: { flow: 'paired' } })
  const ending = paired && snapshot.matches({ active: { flow: { paired: 'deleting' } } })
  const connectivity = (['online', 'reconnecting', 'offline'] as const).find((state) =>
    snapshot.matches({ active: { connectivity: state } }),
  )
  return {
    phase: !active ? 'ended' : ending ? 'ending' : paired ? 'paired' : 'pairing',
    session: paired || !active ? context.session : null,
    busy: context.request !== null || context.ping !== null,
    connectivity: connectivity ?? (active ? 'connecting' : 'offline'),
    outcome: snapshot.output?.status ?? null,
    error: context.error,
  }
}
