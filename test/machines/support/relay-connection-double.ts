import { type AnyEventObject, assign, fromCallback, setup } from 'xstate'
import type { ErrorData } from '../../../machines/shared/error-data'

/** A status the double can be played into: one of the relay-connection chart's open states. */
export type PlayedRelayStatus = 'connecting' | 'online' | 'reconnecting' | 'offline'

const PLAYED: readonly PlayedRelayStatus[] = ['connecting', 'online', 'reconnecting', 'offline']

/**
 * A double of the relay-connection chart for a pairing's `relayConnection` child: a machine with
 * the chart's top-level states and the context its host reads (`error`, `attempt`), so the pairing
 * follows it by snapshot as it follows the real one. `play` moves the running double (the latest
 * started); `received` keeps what the pairing sent it (`RECONNECT`); `onStop` runs when the
 * pairing stops it.
 */
export function relayConnectionDouble(
  options: { initial?: PlayedRelayStatus | 'idle'; onStop?: () => void } = {},
) {
  const received: AnyEventObject[] = []
  let playInto: ((event: AnyEventObject) => void) | null = null
  const logic = setup({
    types: {} as {
      context: { error: ErrorData | null; attempt: number }
      events: AnyEventObject
    },
    actors: {
      // Its hand on the double: what the test plays reaches the double through it.
      hand: fromCallback(({ sendBack }) => {
        playInto = sendBack
        return () => options.onStop?.()
      }),
    },
    actions: {
      /** What the played status reports: its error and attempt. */
      report: assign(({ event }) => ({
        error: (event.error as ErrorData | undefined) ?? null,
        attempt: (event.attempt as number | undefined) ?? 0,
      })),
    },
  }).createMachine({
    id: 'relayConnection',
    context: { error: null, attempt: 0 },
    initial: options.initial ?? 'idle',
    invoke: { src: 'hand' },
    on: {
      PLAY: PLAYED.map((status) => ({
        guard: ({ event }: { event: AnyEventObject }) => event.status === status,
        target: `.${status}`,
        actions: 'report' as const,
      })),
      '*': { actions: ({ event }) => void received.push(event) },
    },
    states: { idle: {}, connecting: {}, online: {}, reconnecting: {}, offline: {}, closed: {} },
  })
  /** Moves the double into `status`, with the error and attempt it reports. */
  const play = (status: PlayedRelayStatus, error?: ErrorData, attempt?: number) =>
    playInto?.({
      type: 'PLAY',
      status,
      ...(error ? { error } : {}),
      ...(attempt ? { attempt } : {}),
    })
  return { logic, received, play }
}
