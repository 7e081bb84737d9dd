import type { ClientStatus, ClientView } from '../../../machines/client/client.view'
import { type ClientPathOptions, exploreClient, statusChanges } from '../paths/generate'

/**
 * What replayed paths covered: the statuses the Client's views showed and the changes between
 * them, against what the chart allows for the same options (`exploreClient`). Hand it to
 * `runClientPath` (`options.coverage`) and print `line()` once the run ends.
 */
export interface ClientCoverage {
  /** Records the views one Client showed, in order. */
  record(views: readonly ClientView[]): void
  readonly statuses: { covered: ClientStatus[]; missing: ClientStatus[] }
  readonly changes: { covered: string[]; missing: string[] }
  /** `scope-connect/testing coverage: statuses 7/7, status changes 21/21` and what is missing. */
  line(): string
}

/** Collects the statuses and status changes replayed paths showed, for the coverage line. */
export function createClientCoverage(options: ClientPathOptions = {}): ClientCoverage {
  const { graph } = exploreClient(options)
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
      return split(graph.statuses, statuses)
    },
    get changes() {
      return split(graph.changes, changes)
    },
    line() {
      const s = coverage.statuses
      const c = coverage.changes
      const missing = [...s.missing, ...c.missing]
      return `scope-connect/testing coverage: statuses ${s.covered.length}/${graph.statuses.length}, status changes ${c.covered.length}/${graph.changes.length}${missing.length > 0 ? ` (missing: ${missing.join(', ')})` : ''}`
    },
  }
  return coverage
}
