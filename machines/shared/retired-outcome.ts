/** A persisted machine snapshot, as far as this reads it. */
type StoredSnapshot = {
  context?: Record<string, unknown> | null
  children?: Record<string, { snapshot?: StoredSnapshot } | undefined>
}

/**
 * Records written before the flows' final states gave their output keep the final status in the
 * flow's context (`outcome`; always `null` in the resumable states a record holds). Read, such a
 * record is returned as a copy without it, so it restores into today's chart under the same record
 * schema; any other value is returned as it is (never throws: the record's checks judge what is
 * left). `child` names the flow's actor in a root record (`universalLink`, `pairing`); without it
 * the record's snapshot is the flow's own. Migrate on read: the stored text is not rewritten until
 * the flow saves again.
 */
export function dropRetiredOutcome<T>(record: T, child?: 'universalLink' | 'pairing'): T {
  const snapshot = (record as { snapshot?: StoredSnapshot } | null)?.snapshot
  const flow = child === undefined ? snapshot : snapshot?.children?.[child]?.snapshot
  const context = flow?.context
  if (typeof context !== 'object' || context === null || !('outcome' in context)) return record
  const { outcome: _retired, ...kept } = context
  const upgraded = { ...flow, context: kept }
  return {
    ...record,
    snapshot:
      child === undefined
        ? upgraded
        : {
            ...snapshot,
            children: {
              ...snapshot?.children,
              [child]: { ...snapshot?.children?.[child], snapshot: upgraded },
            },
          },
  }
}
