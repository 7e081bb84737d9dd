import type { ClientStatus, ClientView } from '../../../machines/client/client.view'
import { checkArgument } from '../arguments'
import {
  CLIENT_FLOWS,
  type ClientPathOptions,
  exploreClient,
  statusChanges,
} from '../paths/generate'
import type { ClientFlow } from '../paths/types'

/**
 * Every `ClientStatus` of the view, checked by the compiler (a status added to the view does not
 * compile here until it is placed): `true` where the chart reaches it through the steps of a
 * flow, else why no path can.
 */
const CLIENT_STATUSES = {
  idle: true,
  selecting: true,
  pairing: true,
  disconnected: true,
  connecting: true,
  reconnecting: true,
  awaitingWallet: true,
  connected: true,
  signing: true,
  switchingChain: true,
  awaitingSignature: true,
  disconnecting: true,
  stopped:
    'the root actor stopped from outside (actor.stop()): no flow of the chart ends there, the next call starts a fresh root',
} as const satisfies Record<ClientStatus, true | string>

/** The statuses no path can reach, with the reason (printed in the coverage line). */
export const UNCOUNTED_STATUSES: ReadonlyArray<{ status: ClientStatus; reason: string }> =
  /* @__PURE__ */ Object.entries(CLIENT_STATUSES).flatMap(([status, counted]) =>
    counted === true ? [] : [{ status: status as ClientStatus, reason: counted }],
  )

/** The flows the paths are generated for (the others' statuses count as missing). */
const GENERATED_FLOWS: readonly ClientFlow[] = CLIENT_FLOWS

/**
 * What replayed paths covered: the statuses the Client's views showed and the changes between
 * them, against what the chart allows for the same options (`exploreClient`) — plus the statuses
 * of the view that no generated flow reaches (they show as missing), less `UNCOUNTED_STATUSES`.
 * Hand it to `runClientPath` (`options.coverage`) and print `line()` once the run ends.
 */
export interface ClientCoverage {
  /** Records the views one Client showed, in order. */
  record(views: readonly ClientView[]): void
  readonly statuses: { covered: ClientStatus[]; missing: ClientStatus[] }
  readonly changes: { covered: string[]; missing: string[] }
  /** `scope-connect/testing coverage: statuses 11/12, status changes 33/33 (missing: …); not counted: stopped (…)`. */
  line(): string
}

/**
 * Records what replayed paths covered against what the chart allows (see `ClientCoverage`).
 *
 * @throws AppError `INVALID_CONFIG` when an option is of the wrong type (see `exploreClient`).
 */
export function createClientCoverage(options: ClientPathOptions = {}): ClientCoverage {
  checkArgument('pathOptions', options, 'createClientCoverage options')
  const { graph } = exploreClient(options)
  const everyFlow = exploreClient({ ...options, flows: GENERATED_FLOWS }).graph.statuses
  // Statuses the view has and no generated flow reaches: the denominator keeps them (missing).
  const unreached = (Object.keys(CLIENT_STATUSES) as ClientStatus[]).filter(
    (status) => CLIENT_STATUSES[status] === true && !everyFlow.includes(status),
  )
  const denominator = [...graph.statuses, ...unreached.filter((s) => !graph.statuses.includes(s))]
  const statuses = new Set<ClientStatus>()
  const changes = new Set<string>()
  const split = <T>(all: readonly T[], seen: Set<T>) => ({
    covered: all.filter((item) => seen.has(item)),
    missing: all.filter((item) => !seen.has(item)),
  })
  const coverage: ClientCoverage = {
    record(views) {
      const list = views.map((view) => view.status)
      for (const status of list) statuses.add(status)
      for (const change of statusChanges(list)) changes.add(change)
    },
    get statuses() {
      return split(denominator, statuses)
    },
    get changes() {
      return split(graph.changes, changes)
    },
    line() {
      const s = coverage.statuses
      const c = coverage.changes
      const missing = [...s.missing, ...c.missing]
      const uncounted = UNCOUNTED_STATUSES.map(({ status, reason }) => `${status} (${reason})`)
      return `scope-connect/testing coverage: statuses ${s.covered.length}/${denominator.length}, status changes ${c.covered.length}/${graph.changes.length}${missing.length > 0 ? ` (missing: ${missing.join(', ')})` : ''}; not counted: ${uncounted.join(', ')}`
    },
  }
  return coverage
}
