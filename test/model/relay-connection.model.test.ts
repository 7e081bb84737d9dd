import { describe, expect, it } from 'vitest'
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate'
import { getShortestPaths } from 'xstate/graph'
import { relayConnectionMachine } from '../../machines/relay-connection/relay-connection.machine'
import { toRelayConnectionView } from '../../machines/relay-connection/relay-connection.view'
import { AppError } from '../../src/errors'
import { afterEvents, coverageRow, explore, possibleEvents } from './support/coverage'
import { fastestOfThree } from './support/timing'

const T = Date.parse('2026-11-23T10:00:00Z')
const input = {
  backoff: { baseMs: 500, maxMs: 30_000, maxAttempts: 2 },
  keepaliveMs: 25_000,
  requestTimeoutMs: 10_000,
  startedAt: T,
}
const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output })
const fail = (id: string, error: object) => ({ type: `xstate.error.actor.${id}`, error })

const events: AnyEventObject[] = [
  ...afterEvents(relayConnectionMachine),
  { type: 'CONNECT' },
  { type: 'RECONNECT' },
  { type: 'CLOSE' },
  { type: 'SOCKET.OPEN' },
  { type: 'SOCKET.CLOSED', code: 1006 },
  { type: 'SOCKET.CLOSED', code: 4001 },
  done('fetchToken', { expiresAt: T + 3_600_000, at: T + 1 }),
  fail('fetchToken', new AppError('BACKEND_ERROR', '503', { status: 503 })),
  fail('fetchToken', new AppError('BACKEND_ERROR', '401', { status: 401 })),
  done('settle', { at: T + 2 }),
  fail('settle', { code: 'RELAY_ERROR', message: 'timed out' }),
  done('ping', { at: T + 3 }),
  fail('ping', { code: 'RELAY_ERROR', message: 'refused' }),
]

/** The state, the attempt (bounded by the budget) and whether the token is stale; no clock. */
const serialize = (s: AnyMachineSnapshot) =>
  JSON.stringify({
    value: s.value,
    status: s.status,
    attempt: s.context.attempt,
    stale: s.context.tokenStale,
  })

const traverse = () =>
  getShortestPaths(relayConnectionMachine, {
    input,
    events: (snapshot: AnyMachineSnapshot) =>
      possibleEvents(snapshot as AnyMachineSnapshot, events),
    serializeState: (snapshot: AnyMachineSnapshot) => serialize(snapshot as AnyMachineSnapshot),
    limit: 5000,
  } as never)

describe('relay-connection model', () => {
  const exploration = explore(
    relayConnectionMachine,
    [
      { name: 'default', input },
      // No reconnect budget: every loss is offline at once.
      { name: 'no attempts', input: { ...input, backoff: { ...input.backoff, maxAttempts: 0 } } },
    ],
    () => events,
    serialize,
  )
  const row = coverageRow('relay-connection', exploration)

  it('reaches 100 % of states and transitions', () => {
    expect(row.missingStates).toEqual([])
    expect(row.missingTransitions).toEqual([])
  })

  it('traverses deterministically in well under a second', () => {
    // A state-space blow-up shows here (a few ms of CPU on an idle machine).
    const {
      results: [first, again],
      fastestMs,
    } = fastestOfThree(traverse)
    expect(fastestMs).toBeLessThan(1000)
    expect(first.length).toBeGreaterThan(10)
    const keys = (paths: typeof first) =>
      paths.map(
        (p) => `${serialize(p.state as never)} ← ${p.steps.map((s) => s.event.type).join(' ')}`,
      )
    expect(keys(again)).toEqual(keys(first))
  })

  it('every reachable state: JSON-safe context, a status from the state, attempts within the budget', () => {
    for (const { path } of exploration.paths) {
      const s = path.state
      expect(JSON.parse(JSON.stringify(s.context))).toEqual(s.context)
      expect(s.context.attempt).toBeLessThanOrEqual(input.backoff.maxAttempts)
      const view = toRelayConnectionView(s as never)
      expect(view.status === 'online').toBe(s.hasTag('online'))
      if (s.status === 'done') expect(view).toMatchObject({ status: 'offline', closed: true })
      if (s.matches('offline')) expect(s.context.error).not.toBeNull()
    }
  })
})
