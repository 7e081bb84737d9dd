import type { RelayConnectionContext } from './relay-connection.types'

interface PersistedChild {
  snapshot?: { context?: RelayConnectionContext; [key: string]: unknown }
  [key: string]: unknown
}

/**
 * A persisted `relayConnection` child as a new page must start it: `idle`, no socket, no token, no
 * attempt or error — a socket does not survive a reload, and a restored `online` would be a lie —
 * with its settings and connection id kept. The host's flow connects it again when it needs it.
 */
export function restartableRelayConnection(child: unknown): unknown {
  const persisted = child as PersistedChild | undefined
  const context = persisted?.snapshot?.context
  if (persisted?.snapshot === undefined || context === undefined) return child
  return {
    ...persisted,
    snapshot: {
      ...persisted.snapshot,
      status: 'active',
      value: 'idle',
      historyValue: {},
      children: {},
      context: {
        ...context,
        attempt: 0,
        tokenExpiresAt: null,
        tokenStale: false,
        error: null,
      } satisfies RelayConnectionContext,
    },
  }
}
