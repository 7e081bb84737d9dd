import { describe, expect, it } from 'vitest'
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate'
import { getShortestPaths } from 'xstate/graph'
import { pairingMachine } from '../../machines/pairing/pairing.machine'
import { toPairingView } from '../../machines/pairing/pairing.view'
import { afterEvents, coverageRow, explore, possibleEvents } from './support/coverage'
import { fastestOfThree } from './support/timing'

const T = Date.parse('2026-11-23T10:00:00Z')
const session = {
  namespaces: { eip155: { accounts: ['eip155:1:0x70997970C51812dc3A010C7d01b50e0d17dc79C8'] } },
  peer: { publicKey: 'cd'.repeat(32), metadata: { name: 'Wallet', url: 'https://w.example' } },
  expiresAt: T + 7 * 86_400_000,
}
const input = {
  pairingId: 'ab'.repeat(16),
  proposalId: T * 1000,
  relayUrl: 'wss://relay.example/api/v1/connect/relay',
  requiredNamespaces: { eip155: { chains: ['eip155:1'] } },
  metadata: { name: 'dApp', url: 'https://dapp.example' },
  proposalExpiresAt: T + 300_000,
  startedAt: T,
}
const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output })
const fail = (id: string, code: string) => ({
  type: `xstate.error.actor.${id}`,
  error: { code, message: code },
})

const events: AnyEventObject[] = [
  ...afterEvents(pairingMachine),
  { type: 'CANCEL' },
  { type: 'RECONNECT' },
  { type: 'REQUEST', requestId: 'r1', method: 'personal_sign' },
  { type: 'PING', pingId: 'p1' },
  // The request the model sends, and an id it never sent.
  { type: 'ABANDON', requestId: 'r1' },
  { type: 'ABANDON', requestId: 'unknown' },
  { type: 'DISCONNECT' },
  { type: 'PEER.DELETED', code: 6000, message: 'bye' },
  {
    type: 'PEER.ACCOUNTS',
    chainId: 'eip155:1',
    accounts: ['0x70997970c51812dc3a010c7d01b50e0d17dc79c8'],
  },
  { type: 'SESSION.WATCHING', at: T + 3 },
  // The relay connection reports by its snapshots (each of its statuses), and its close by its output.
  ...(
    [
      ['idle', null],
      [{ connecting: 'token' }, null],
      [{ online: 'ready' }, null],
      [{ reconnecting: 'waiting' }, { code: 'RELAY_ERROR', message: 'closed (1006)' }],
      ['offline', { code: 'RELAY_ERROR', message: 'closed (1006)' }],
    ] as const
  ).map(([value, error]) => ({
    type: 'xstate.snapshot.relayConnection',
    snapshot: { value, context: { error, attempt: error ? 1 : 0 } },
  })),
  done('relayConnection', { error: { code: 'ABORTED', message: 'The relay client was closed.' } }),
  ...[
    'fetchRelayToken',
    'connectRelay',
    'settleSession',
    'sendRequest',
    'pingPeer',
    'deleteSession',
  ].flatMap((id) => [done(id, { at: T + 1 }), fail(id, 'RELAY_ERROR')]),
  done('awaitApproval', { session, at: T + 2 }),
  ...['USER_REJECTED', 'SESSION_EXPIRED', 'RELAY_ERROR'].map((code) => fail('awaitApproval', code)),
]

const serialize = (s: AnyMachineSnapshot) =>
  JSON.stringify({
    value: s.value,
    status: s.status,
    error: (s.context as { error?: { code: string } | null }).error?.code ?? null,
    request: (s.context as { request?: unknown }).request ? 1 : 0,
    // The kinds of the queued work (the queue is bounded here: at most two in a row).
    queue: (s.context as { queue: Array<{ kind: string }> }).queue.slice(0, 2).map((w) => w.kind),
    session: (s.context as { session?: unknown }).session ? 1 : 0,
  })

describe('pairing model', () => {
  const exploration = explore(pairingMachine, [{ name: 'default', input }], () => events, serialize)
  const row = coverageRow('pairing', exploration)

  it('reaches 100 % of states and transitions', () => {
    expect(row.missingStates).toEqual([])
    expect(row.missingTransitions).toEqual([])
  })

  it('traverses deterministically in well under a second', () => {
    const traverse = () =>
      getShortestPaths(pairingMachine, {
        input,
        events: (snapshot: AnyMachineSnapshot) =>
          possibleEvents(snapshot as AnyMachineSnapshot, events),
        serializeState: (snapshot: AnyMachineSnapshot) => serialize(snapshot as AnyMachineSnapshot),
        limit: 5000,
      } as never)
    // One traversal takes about 0.2 s of CPU on an idle machine.
    const {
      results: [first, again],
      fastestMs,
    } = fastestOfThree(traverse)
    expect(fastestMs).toBeLessThan(1000)
    const keys = (paths: typeof first) =>
      paths.map(
        (p) => `${serialize(p.state as never)} ← ${p.steps.map((s) => s.event.type).join(' ')}`,
      )
    expect(keys(again)).toEqual(keys(first))
  })

  it('every reachable state keeps a JSON-safe, secret-free context and its invariants', () => {
    for (const { path } of exploration.paths) {
      const s = path.state
      expect(JSON.parse(JSON.stringify(s.context))).toEqual(s.context)
      expect(JSON.stringify(s.context)).not.toMatch(/symKey|privateKey|[0-9a-f]{64}(?!")/)
      if (s.hasTag('resumable')) {
        expect(s.matches({ active: { flow: { paired: 'idle' } } })).toBe(true)
        expect(s.context.session).not.toBeNull()
      }
      if (s.matches({ active: { flow: 'paired' } })) expect(s.context.session).not.toBeNull()
      // The view the flow and UIs read agrees with the chart.
      const view = toPairingView(s as never)
      if (s.hasTag('resumable')) expect(view).toMatchObject({ phase: 'paired', busy: false })
      if (s.status === 'done') expect(view).toMatchObject({ phase: 'ended', outcome: s.value })
      if (view.phase === 'paired' || view.phase === 'ending') expect(view.session).not.toBeNull()
      if (s.status === 'active' && view.phase === 'pairing') {
        expect(s.matches({ active: { flow: 'paired' } })).toBe(false)
      }
      if (s.status === 'done') {
        expect(s.output.status).toBe(s.value)
        if (s.value === 'rejected') expect(s.context.error?.code).toBe('USER_REJECTED')
        if (s.value === 'expired') expect(s.context.error?.code).toBe('SESSION_EXPIRED')
        if (s.value === 'cancelled') expect(s.context.error?.code).toBe('ABORTED')
      }
    }
  })
})
