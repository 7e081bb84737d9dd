import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type AnyEventObject, createActor, fromCallback, fromPromise } from 'xstate'
import { pairingMachine } from '../../machines/pairing/pairing.machine'
import type {
  ActorTime,
  ApprovalOutput,
  PairedSessionData,
  PairingInput,
} from '../../machines/pairing/pairing.types'
import { relayConnectionMachine } from '../../machines/relay-connection/relay-connection.machine'
import { AppError } from '../../src/errors'
import { relayConnectionDouble } from './support/relay-connection-double'

const T = Date.parse('2026-11-23T10:00:00Z')
const input: PairingInput = {
  pairingId: 'ab'.repeat(16),
  proposalId: T * 1000 + 7,
  relayUrl: 'wss://relay.example/api/v1/connect/relay',
  requiredNamespaces: { eip155: { chains: ['eip155:1'], methods: ['personal_sign'] } },
  metadata: { name: 'dApp', url: 'https://dapp.example' },
  proposalExpiresAt: T + 300_000,
  startedAt: T,
}
const session: PairedSessionData = {
  namespaces: { eip155: { accounts: ['eip155:1:0x70997970C51812dc3A010C7d01b50e0d17dc79C8'] } },
  peer: { publicKey: 'cd'.repeat(32), metadata: { name: 'Wallet', url: 'https://w.example' } },
  expiresAt: T + 7 * 86_400_000,
}

type Deferred<T> = { resolve: (value: T) => void; reject: (error: unknown) => void }

/**
 * Every promise actor waits for the test; callback actors record what they receive. The
 * `relayConnection` child is a double the test plays into each status, unless one is given.
 */
function scripted(relayConnection?: typeof relayConnectionMachine, pairingInput = input) {
  const pending: Record<string, Array<Deferred<unknown>>> = {}
  const inputs: Record<string, unknown[]> = {}
  let maintainSendBack: ((event: AnyEventObject) => void) | null = null
  const stopped: string[] = []
  const double = relayConnectionDouble({ onStop: () => stopped.push('relayConnection') })
  const record = (name: string, value: unknown) => {
    inputs[name] = [...(inputs[name] ?? []), value]
  }
  const promise = (name: string) =>
    fromPromise(({ input }) => {
      record(name, input)
      return new Promise((resolve, reject) => {
        pending[name] = [...(pending[name] ?? []), { resolve, reject }]
      })
    })
  const machine = pairingMachine.provide({
    actors: {
      relayConnection: relayConnection ?? (double.logic as never),
      maintainSession: fromCallback(({ sendBack, input }) => {
        maintainSendBack = sendBack
        record('maintainSession', input)
        return () => stopped.push('maintainSession')
      }),
      fetchRelayToken: promise('fetchRelayToken') as never,
      connectRelay: promise('connectRelay') as never,
      awaitApproval: promise('awaitApproval') as never,
      settleSession: promise('settleSession') as never,
      sendRequest: promise('sendRequest') as never,
      pingPeer: promise('pingPeer') as never,
      deleteSession: promise('deleteSession') as never,
    },
  })
  const actor = createActor(machine, { input: pairingInput })
  const settle = async (name: string, outcome: unknown, fail = false) => {
    await vi.advanceTimersByTimeAsync(0)
    const next = pending[name]?.shift()
    if (!next) throw new Error(`${name} is not running`)
    if (fail) next.reject(outcome)
    else next.resolve(outcome)
    await vi.advanceTimersByTimeAsync(0)
  }
  return {
    machine,
    actor,
    inputs,
    /** What the pairing sent its relay connection (the double's). */
    relayEvents: double.received,
    stopped,
    settle,
    /** Plays the relay connection (the double) into a status. */
    relay: double.play,
    maintain: (event: AnyEventObject) => maintainSendBack?.(event),
    running: (name: string) => (pending[name]?.length ?? 0) > 0,
  }
}

const at = (offset: number): ActorTime => ({ at: T + offset })
const approval = (offset = 100): ApprovalOutput => ({ session, at: T + offset })

async function toPaired(s: ReturnType<typeof scripted>) {
  s.actor.start()
  await s.settle('fetchRelayToken', at(10))
  await s.settle('connectRelay', at(20))
  await s.settle('awaitApproval', approval())
  await s.settle('settleSession', at(120))
}

const flow = (s: ReturnType<typeof scripted>) =>
  (s.actor.getSnapshot().value as { active?: { flow: unknown } }).active?.flow ??
  s.actor.getSnapshot().value

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: T })
})
afterEach(() => {
  vi.useRealTimers()
})

describe('pairing machine', () => {
  it('token → relay → approval → keys → paired, with the approval in context and no secret', async () => {
    const s = scripted()
    s.actor.start()
    expect(flow(s)).toBe('requestingToken')
    await s.settle('fetchRelayToken', at(10))
    expect(flow(s)).toBe('connectingRelay')
    await s.settle('connectRelay', at(20))
    expect(flow(s)).toBe('awaitingApproval')
    expect(s.inputs.awaitApproval?.[0]).toEqual({
      pairingId: input.pairingId,
      proposalId: input.proposalId,
      requiredNamespaces: input.requiredNamespaces,
      metadata: input.metadata,
      proposalExpiresAt: input.proposalExpiresAt,
    })
    await s.settle('awaitApproval', approval())
    expect(flow(s)).toBe('settlingKeys')
    expect(s.inputs.settleSession?.[0]).toEqual({
      pairingId: input.pairingId,
      peerPublicKey: session.peer.publicKey,
    })
    await s.settle('settleSession', at(120))
    expect(flow(s)).toEqual({ paired: 'idle' })
    const snapshot = s.actor.getSnapshot()
    expect(snapshot.context.session).toEqual(session)
    // The connection in the shape every flow reports to the root (CAIP-10 → address).
    expect(snapshot.context.connection).toEqual({
      walletId: null,
      connectorId: 'relay',
      namespace: 'eip155',
      chainId: 'eip155:1',
      accounts: ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8'],
    })
    expect(snapshot.context.clock).toBe(T + 120)
    expect(snapshot.hasTag('resumable')).toBe(true)
    expect(s.inputs.maintainSession?.[0]).toEqual({ pairingId: input.pairingId })
    expect(JSON.parse(JSON.stringify(snapshot.context))).toEqual(snapshot.context)
  })

  it.each([
    [
      'the first EVM chain, its accounts only',
      {
        eip155: {
          accounts: ['eip155:10:0xA', 'eip155:1:0xB', 'eip155:10:0xC'],
        },
        solana: { accounts: ['solana:5eyk:So1'] },
      },
      { namespace: 'eip155', chainId: 'eip155:10', accounts: ['0xA', '0xC'] },
    ],
    [
      'Solana when no EVM account',
      { eip155: { accounts: [] }, solana: { accounts: ['solana:5eyk:So1', 'solana:5eyk:So2'] } },
      { namespace: 'solana', chainId: 'solana:5eyk', accounts: ['So1', 'So2'] },
    ],
  ] as const)('the connection a session gives: %s', async (_, namespaces, expected) => {
    const s = scripted()
    s.actor.start()
    await s.settle('fetchRelayToken', at(10))
    await s.settle('connectRelay', at(20))
    await s.settle('awaitApproval', {
      session: { ...session, namespaces: structuredClone(namespaces) },
      at: T + 100,
    })
    expect(s.actor.getSnapshot().context.connection).toEqual({
      walletId: null,
      connectorId: 'relay',
      ...expected,
    })
  })

  it('only paired.idle is resumable', async () => {
    const s = scripted()
    s.actor.start()
    expect(s.actor.getSnapshot().hasTag('resumable')).toBe(false)
    await s.settle('fetchRelayToken', at(10))
    await s.settle('connectRelay', at(20))
    expect(s.actor.getSnapshot().hasTag('resumable')).toBe(false)
    await s.settle('awaitApproval', approval())
    expect(s.actor.getSnapshot().hasTag('resumable')).toBe(false)
    await s.settle('settleSession', at(120))
    expect(s.actor.getSnapshot().hasTag('resumable')).toBe(true)
    s.actor.send({ type: 'REQUEST', requestId: 'r1', method: 'personal_sign' })
    expect(s.actor.getSnapshot().hasTag('resumable')).toBe(false)
  })

  it.each([
    ['fetchRelayToken', 0],
    ['connectRelay', 1],
    ['settleSession', 3],
  ])('a failing %s ends in failed with its error', async (name, step) => {
    const s = scripted()
    s.actor.start()
    const steps: Array<[string, unknown]> = [
      ['fetchRelayToken', at(10)],
      ['connectRelay', at(20)],
      ['awaitApproval', approval()],
    ]
    for (const [actorName, output] of steps.slice(0, step)) await s.settle(actorName, output)
    await s.settle(name, new AppError('BACKEND_ERROR', 'HTTP 401', { status: 401 }), true)
    expect(s.actor.getSnapshot().value).toBe('failed')
    expect(s.actor.getSnapshot().output).toEqual({
      status: 'failed',
      session: step === 3 ? session : null,
      error: { code: 'BACKEND_ERROR', message: 'HTTP 401', status: 401 },
    })
    expect(s.stopped).toContain('relayConnection')
  })

  it.each([
    ['USER_REJECTED', 'rejected'],
    ['SESSION_EXPIRED', 'expired'],
    ['RELAY_ERROR', 'failed'],
    ['WALLET_ERROR', 'failed'],
  ])('the wallet answers the proposal with %s: %s', async (code, target) => {
    const s = scripted()
    s.actor.start()
    await s.settle('fetchRelayToken', at(10))
    await s.settle('connectRelay', at(20))
    await s.settle('awaitApproval', new AppError(code as never, 'no'), true)
    expect(s.actor.getSnapshot().value).toBe(target)
    expect(s.actor.getSnapshot().output).toMatchObject({ status: target, error: { code } })
  })

  it('the proposal expires by the named delay, measured from the last observed time', async () => {
    const s = scripted()
    s.actor.start()
    await s.settle('fetchRelayToken', at(10))
    await s.settle('connectRelay', at(60_000)) // clock: T + 60 s → 240 s left
    expect(flow(s)).toBe('awaitingApproval')
    await vi.advanceTimersByTimeAsync(239_999)
    expect(flow(s)).toBe('awaitingApproval')
    await vi.advanceTimersByTimeAsync(1)
    expect(s.actor.getSnapshot().value).toBe('expired')
    expect(s.actor.getSnapshot().context.error).toEqual({
      code: 'SESSION_EXPIRED',
      message: 'The wallet did not answer the proposal before it expired.',
    })
  })

  it('paired: a request goes out by id and is recorded answered or failed, never its result', async () => {
    const s = scripted()
    await toPaired(s)
    s.actor.send({ type: 'REQUEST', requestId: 'r1', method: 'personal_sign' })
    expect(flow(s)).toEqual({ paired: 'requesting' })
    expect(s.actor.getSnapshot().context.request).toEqual({
      requestId: 'r1',
      method: 'personal_sign',
    })
    expect(s.inputs.sendRequest?.[0]).toEqual({ pairingId: input.pairingId, requestId: 'r1' })
    await s.settle('sendRequest', at(500))
    expect(flow(s)).toEqual({ paired: 'idle' })
    expect(s.actor.getSnapshot().context.request).toBeNull()
    expect(s.actor.getSnapshot().context.lastRequest).toEqual({
      requestId: 'r1',
      method: 'personal_sign',
      status: 'answered',
      error: null,
      at: T + 500,
    })
    s.actor.send({ type: 'REQUEST', requestId: 'r3', method: 'eth_signTypedData_v4' })
    await s.settle('sendRequest', new AppError('USER_REJECTED', 'declined'), true)
    expect(flow(s)).toEqual({ paired: 'idle' })
    expect(s.actor.getSnapshot().context.lastRequest).toMatchObject({
      requestId: 'r3',
      status: 'failed',
      error: { code: 'USER_REJECTED', message: 'declined' },
    })
  })

  it('behavior: work that arrives while busy waits in order; each request and ping has its record', async () => {
    const s = scripted()
    await toPaired(s)
    s.actor.send({ type: 'REQUEST', requestId: 'r1', method: 'personal_sign' })
    s.actor.send({ type: 'PING', pingId: 'p1' })
    s.actor.send({ type: 'REQUEST', requestId: 'r2', method: 'personal_sign' })
    expect(s.actor.getSnapshot().context.queue).toEqual([
      { kind: 'ping', pingId: 'p1' },
      { kind: 'request', requestId: 'r2', method: 'personal_sign' },
    ])
    await s.settle('sendRequest', at(500))
    expect(flow(s)).toEqual({ paired: 'pinging' })
    expect(s.actor.getSnapshot().context.lastRequest?.requestId).toBe('r1')
    s.actor.send({ type: 'REQUEST', requestId: 'r3', method: 'personal_sign' }) // queued while pinging
    await s.settle('pingPeer', at(600))
    expect(s.actor.getSnapshot().context.lastPing).toEqual({
      pingId: 'p1',
      status: 'answered',
      error: null,
      at: T + 600,
    })
    expect(flow(s)).toEqual({ paired: 'requesting' })
    expect(s.actor.getSnapshot().context.request?.requestId).toBe('r2')
    await s.settle('sendRequest', at(700))
    expect(s.actor.getSnapshot().context.request?.requestId).toBe('r3')
    s.actor.send({ type: 'PING', pingId: 'p2' })
    await s.settle('sendRequest', at(800))
    expect(flow(s)).toEqual({ paired: 'pinging' })
    expect(s.actor.getSnapshot().context.queue).toEqual([])
  })

  it('error: a request or ping without an answer in requestTimeoutMs fails with TIMEOUT', async () => {
    const s = scripted()
    await toPaired(s)
    s.actor.send({ type: 'REQUEST', requestId: 'r1', method: 'personal_sign' })
    await vi.advanceTimersByTimeAsync(299_999)
    expect(flow(s)).toEqual({ paired: 'requesting' })
    await vi.advanceTimersByTimeAsync(1)
    expect(flow(s)).toEqual({ paired: 'idle' })
    expect(s.actor.getSnapshot().context.lastRequest).toMatchObject({
      requestId: 'r1',
      status: 'failed',
      error: { code: 'TIMEOUT' },
    })
    s.actor.send({ type: 'PING', pingId: 'p1' })
    await vi.advanceTimersByTimeAsync(300_000)
    expect(flow(s)).toEqual({ paired: 'idle' })
    expect(s.actor.getSnapshot().context.lastPing).toMatchObject({
      pingId: 'p1',
      status: 'failed',
      error: { code: 'TIMEOUT' },
    })
  })

  it('behavior: ABANDON of the request in flight ends it ABORTED at once and stops its sendRequest', async () => {
    const s = scripted()
    await toPaired(s)
    s.actor.send({ type: 'REQUEST', requestId: 'r1', method: 'personal_sign' })
    s.actor.send({ type: 'ABANDON', requestId: 'r1' })
    expect(flow(s)).toEqual({ paired: 'idle' })
    expect(s.actor.getSnapshot().children.sendRequest).toBeUndefined()
    expect(s.actor.getSnapshot().context.request).toBeNull()
    expect(s.actor.getSnapshot().context.lastRequest).toEqual({
      requestId: 'r1',
      method: 'personal_sign',
      status: 'failed',
      error: { code: 'ABORTED', message: 'The request was given up.' },
      at: T + 120,
    })
    // Its late answer is nobody's: the record stays.
    await s.settle('sendRequest', at(500))
    expect(s.actor.getSnapshot().context.lastRequest).toMatchObject({
      requestId: 'r1',
      status: 'failed',
    })
    // The next request goes out at once.
    s.actor.send({ type: 'REQUEST', requestId: 'r2', method: 'personal_sign' })
    expect(flow(s)).toEqual({ paired: 'requesting' })
    expect(s.inputs.sendRequest?.at(-1)).toEqual({ pairingId: input.pairingId, requestId: 'r2' })
  })

  it('behavior: ABANDON drops a queued request (while requesting or pinging); unknown ids change nothing', async () => {
    const s = scripted()
    await toPaired(s)
    s.actor.send({ type: 'REQUEST', requestId: 'r1', method: 'personal_sign' })
    s.actor.send({ type: 'PING', pingId: 'p1' })
    s.actor.send({ type: 'REQUEST', requestId: 'r2', method: 'personal_sign' })
    s.actor.send({ type: 'REQUEST', requestId: 'r3', method: 'personal_sign' })
    s.actor.send({ type: 'ABANDON', requestId: 'r2' })
    s.actor.send({ type: 'ABANDON', requestId: 'unknown' })
    expect(flow(s)).toEqual({ paired: 'requesting' })
    expect(s.actor.getSnapshot().context.request?.requestId).toBe('r1')
    expect(s.actor.getSnapshot().context.queue).toEqual([
      { kind: 'ping', pingId: 'p1' },
      { kind: 'request', requestId: 'r3', method: 'personal_sign' },
    ])
    // The request in flight abandoned: the queued work goes, in order.
    s.actor.send({ type: 'ABANDON', requestId: 'r1' })
    expect(flow(s)).toEqual({ paired: 'pinging' })
    expect(s.actor.getSnapshot().context.lastRequest).toMatchObject({
      requestId: 'r1',
      error: { code: 'ABORTED' },
    })
    s.actor.send({ type: 'ABANDON', requestId: 'unknown' })
    s.actor.send({ type: 'ABANDON', requestId: 'r3' })
    expect(flow(s)).toEqual({ paired: 'pinging' })
    expect(s.actor.getSnapshot().context.queue).toEqual([])
    await s.settle('pingPeer', at(600))
    expect(flow(s)).toEqual({ paired: 'idle' })
    s.actor.send({ type: 'ABANDON', requestId: 'r1' })
    expect(flow(s)).toEqual({ paired: 'idle' })
    expect(s.actor.getSnapshot().context.lastRequest?.requestId).toBe('r1')
    expect(s.inputs.sendRequest).toEqual([{ pairingId: input.pairingId, requestId: 'r1' }])
  })

  it('behavior: a delete that never finishes ends the session after deleteTimeout', async () => {
    const s = scripted()
    await toPaired(s)
    s.actor.send({ type: 'DISCONNECT' })
    await vi.advanceTimersByTimeAsync(29_999)
    expect(flow(s)).toEqual({ paired: 'deleting' })
    await vi.advanceTimersByTimeAsync(1)
    expect(s.actor.getSnapshot().value).toBe('disconnected')
  })

  it('paired: pings record their time; a failed ping does not', async () => {
    const s = scripted()
    await toPaired(s)
    s.actor.send({ type: 'PING' })
    expect(flow(s)).toEqual({ paired: 'pinging' })
    await s.settle('pingPeer', at(900))
    expect(flow(s)).toEqual({ paired: 'idle' })
    expect(s.actor.getSnapshot().context.lastPingAt).toBe(T + 900)
    s.actor.send({ type: 'PING' })
    await s.settle('pingPeer', new AppError('TIMEOUT', 'no answer'), true)
    expect(flow(s)).toEqual({ paired: 'idle' })
    expect(s.actor.getSnapshot().context.lastPingAt).toBe(T + 900)
    expect(s.actor.getSnapshot().context.lastPing).toMatchObject({
      pingId: 'ping',
      status: 'failed',
      error: { code: 'TIMEOUT', message: 'no answer' },
    })
  })

  it.each(['idle', 'requesting', 'pinging'])(
    'DISCONNECT from %s deletes, then disconnected',
    async (from) => {
      const s = scripted()
      await toPaired(s)
      if (from === 'requesting')
        s.actor.send({ type: 'REQUEST', requestId: 'r1', method: 'personal_sign' })
      if (from === 'pinging') s.actor.send({ type: 'PING' })
      expect(flow(s)).toEqual({ paired: from })
      s.actor.send({ type: 'DISCONNECT' })
      expect(flow(s)).toEqual({ paired: 'deleting' })
      await s.settle('deleteSession', at(1000), from === 'pinging')
      expect(s.actor.getSnapshot().value).toBe('disconnected')
      expect(s.actor.getSnapshot().output?.status).toBe('disconnected')
      expect(s.stopped).toEqual(expect.arrayContaining(['maintainSession', 'relayConnection']))
    },
  )

  it('paired: the wallet deleting the session ends it (NOT_CONNECTED)', async () => {
    const s = scripted()
    await toPaired(s)
    s.maintain({ type: 'PEER.DELETED', code: 6000, message: 'User disconnected.' })
    expect(s.actor.getSnapshot().value).toBe('disconnected')
    expect(s.actor.getSnapshot().context.error).toEqual({
      code: 'NOT_CONNECTED',
      message: 'The wallet ended the session: User disconnected.',
    })
  })

  it('paired: the session expires at its absolute expiry, counted from the clock the actors report', async () => {
    const e = scripted()
    await toPaired(e) // clock T + 120, 120 ms of the lifetime gone
    await vi.advanceTimersByTimeAsync(session.expiresAt - T - 121)
    expect(flow(e)).toEqual({ paired: 'idle' })
    await vi.advanceTimersByTimeAsync(1)
    expect(e.actor.getSnapshot().value).toBe('expired')
    expect(e.actor.getSnapshot().context.error).toEqual({
      code: 'SESSION_EXPIRED',
      message: 'The relay session reached its expiry.',
    })
  })

  it('paired: a request in flight defers the expiry; back at idle it waits only what is left', async () => {
    const e = scripted()
    await toPaired(e)
    e.actor.send({ type: 'REQUEST', requestId: 'r1', method: 'personal_sign' })
    // Time passes with no timer of the flow running (the request's own timeout is longer here).
    vi.setSystemTime(session.expiresAt)
    expect(flow(e)).toEqual({ paired: 'requesting' })
    await e.settle('sendRequest', at(session.expiresAt - T + 5))
    expect(e.actor.getSnapshot().value).toBe('expired')
  })

  it('restored: a persisted paired session waits only what is left of its lifetime', async () => {
    const s = scripted()
    await toPaired(s)
    const persisted = s.actor.getPersistedSnapshot()
    s.actor.stop()
    // A reload six days later: XState restores no timer; the restarted maintainSession reports the time.
    const sixDays = 6 * 86_400_000
    vi.setSystemTime(T + sixDays)
    const r = scripted()
    const restored = createActor(r.machine, {
      snapshot: persisted as never,
      input: undefined as never,
    })
    restored.start()
    r.maintain({ type: 'SESSION.WATCHING', at: T + sixDays })
    expect(restored.getSnapshot().context.clock).toBe(T + sixDays)
    await vi.advanceTimersByTimeAsync(session.expiresAt - T - sixDays - 1)
    expect(restored.getSnapshot().value).toMatchObject({ active: { flow: { paired: 'idle' } } })
    await vi.advanceTimersByTimeAsync(1)
    expect(restored.getSnapshot().value).toBe('expired')
  })

  it('CANCEL ends any active state in cancelled (ABORTED); requests before pairing are ignored', async () => {
    const s = scripted()
    s.actor.start()
    await s.settle('fetchRelayToken', at(10))
    await s.settle('connectRelay', at(20))
    s.actor.send({ type: 'REQUEST', requestId: 'r1', method: 'personal_sign' })
    s.actor.send({ type: 'PING' })
    s.actor.send({ type: 'DISCONNECT' })
    expect(flow(s)).toBe('awaitingApproval')
    s.actor.send({ type: 'CANCEL' })
    expect(s.actor.getSnapshot().value).toBe('cancelled')
    expect(s.actor.getSnapshot().context.error?.code).toBe('ABORTED')
    const p = scripted()
    await toPaired(p)
    p.actor.send({ type: 'CANCEL' })
    expect(p.actor.getSnapshot().output).toMatchObject({ status: 'cancelled', session })
  })

  it('connectivity follows the relay: connecting, online, reconnecting, offline; RECONNECT only from offline', async () => {
    const s = scripted()
    s.actor.start()
    const region = () =>
      (s.actor.getSnapshot().value as { active: { connectivity: string } }).active.connectivity
    expect(region()).toBe('connecting')
    s.relay('online')
    expect(region()).toBe('online')
    s.actor.send({ type: 'RECONNECT' })
    expect(s.relayEvents).toEqual([])
    const error = { code: 'RELAY_ERROR' as const, message: 'closed (1006)' }
    s.relay('reconnecting', error, 1)
    expect(region()).toBe('reconnecting')
    expect(s.actor.getSnapshot().context.relayError).toEqual(error)
    s.actor.send({ type: 'RECONNECT' })
    expect(s.relayEvents).toEqual([])
    s.relay('offline', error)
    expect(region()).toBe('offline')
    s.actor.send({ type: 'RECONNECT' })
    expect(s.relayEvents).toEqual([{ type: 'RECONNECT' }])
    s.relay('connecting')
    expect(region()).toBe('connecting')
    s.relay('online')
    expect(region()).toBe('online')
    expect(s.actor.getSnapshot().context.relayError).toBeNull()
    // The flow is independent of the connectivity region.
    expect(flow(s)).toBe('requestingToken')
  })

  it('behavior: connectivity follows the relay-connection chart by its snapshots, its close by its output', async () => {
    // The real chart as the child, its I/O scripted: tokens and topics settle at once, the test
    // opens and closes the sockets.
    const sockets: Array<(event: AnyEventObject) => void> = []
    const relayConnection = relayConnectionMachine.provide({
      actors: {
        fetchToken: fromPromise(async () => ({
          expiresAt: Date.now() + 3_600_000,
          at: Date.now(),
        })),
        settle: fromPromise(async () => ({ at: Date.now() })),
        ping: fromPromise(async () => ({ at: Date.now() })),
        socket: fromCallback(({ sendBack }) => void sockets.push(sendBack)),
      },
    })
    const relay = {
      backoff: { baseMs: 500, maxMs: 500, maxAttempts: 1 },
      keepaliveMs: 0,
      requestTimeoutMs: 10_000,
    }
    const s = scripted(relayConnection, { ...input, relay })
    const region = () =>
      (s.actor.getSnapshot().value as { active: { connectivity: string } }).active.connectivity
    const child = () => s.actor.system.get('relayConnection')
    const socket = (event: AnyEventObject) => sockets.at(-1)?.(event)
    const toOnline = async () => {
      await vi.advanceTimersByTimeAsync(0)
      socket({ type: 'SOCKET.OPEN' })
      await vi.advanceTimersByTimeAsync(0)
    }
    s.actor.start()
    expect(region()).toBe('connecting')
    child().send({ type: 'CONNECT' })
    expect(region()).toBe('connecting')
    await toOnline()
    expect(region()).toBe('online')
    expect(s.actor.getSnapshot().context.relayError).toBeNull()

    socket({ type: 'SOCKET.CLOSED', code: 1006 })
    expect(region()).toBe('reconnecting')
    expect(s.actor.getSnapshot().context.relayError?.message).toMatch(/code 1006/)
    await vi.advanceTimersByTimeAsync(500)
    await vi.advanceTimersByTimeAsync(0)
    // Refused before it opened, the budget spent: offline, with why.
    socket({ type: 'SOCKET.CLOSED', code: 1011 })
    expect(region()).toBe('offline')
    expect(s.actor.getSnapshot().context.relayError?.message).toMatch(/code 1011/)

    // RECONNECT reaches the child, whose reconnect the region follows back online.
    s.actor.send({ type: 'RECONNECT' })
    expect(region()).toBe('reconnecting')
    await toOnline()
    expect(region()).toBe('online')
    expect(s.actor.getSnapshot().context.relayError).toBeNull()

    // Closed, the child is done (no snapshot): its output says offline, and why.
    child().send({ type: 'CLOSE' })
    expect(region()).toBe('offline')
    expect(s.actor.getSnapshot().context.relayError).toEqual({
      code: 'ABORTED',
      message: 'The relay client was closed.',
    })
    // The flow is independent of the connectivity region.
    expect(flow(s)).toBe('requestingToken')
  })
})
