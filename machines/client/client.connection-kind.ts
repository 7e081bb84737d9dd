import type { ConnectionKind } from './client.types'

/** How records stored before 0.3 spell the `universal-link` connection kind. */
const LEGACY_UNIVERSAL_LINK = 'universalLink'

/**
 * A stored root record (`{ snapshot, … }`) whose root context names its connector's kind in the old
 * spelling (`universalLink`), as a copy in today's (`universal-link`); any other value is returned as it is
 * (never throws: the record's checks judge what is left). Migrate on read: the stored text is not
 * rewritten until the flow saves again.
 */
export function migrateStoredConnectionKind<T>(record: T): T {
  const snapshot = (record as { snapshot?: unknown } | null)?.snapshot as
    | { context?: { connector?: { kind?: unknown } | null } | null }
    | undefined
  const connector = snapshot?.context?.connector
  if (
    typeof connector !== 'object' ||
    connector === null ||
    connector.kind !== LEGACY_UNIVERSAL_LINK
  )
    return record
  return {
    ...record,
    snapshot: {
      ...snapshot,
      context: {
        ...snapshot?.context,
        connector: { ...connector, kind: 'universal-link' satisfies ConnectionKind },
      },
    },
  }
}
