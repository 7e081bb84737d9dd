import {
  assign,
  type DoneActorEvent,
  type ErrorActorEvent,
  type EventObject,
  fromCallback,
  fromPromise,
  raise,
  type SnapshotFrom,
  sendTo,
  setup,
} from 'xstate'
import type { AppErrorCode } from '../../src/errors/app-error'
import { relayConnectionSettings } from '../../src/relay/client/settings'
import type { ConnectionData } from '../connect/connect.types'
import { relayConnectionMachine } from '../relay-connection/relay-connection.machine'
import { type ErrorData, toErrorData } from '../shared/error-data'
import { finalStateOutput } from '../shared/final-state'
import { notProvided } from '../shared/not-provided'
import { type TopState, topState } from '../shared/top-state'
import {
  type ActorTime,
  type ApprovalOutput,
  type AwaitApprovalInput,
  PAIRING_RESUMABLE_TAG,
  type PairedSessionData,
  type PairingContext,
  type PairingEvent,
  type PairingFinalStatus,
  type PairingInput,
  type PairingOutput,
  type PairingRefInput,
  type PairingWork,
  type RelayConnectivity,
  type SendRequestInput,
  type SettleSessionInput,
} from './pairing.types'

/** Bump when a change makes older persisted snapshots unsafe to restore. */
export const PAIRING_MACHINE_VERSION = 3

type AnyEvent = PairingEvent | { type: string }

/** Why a request in flight ended with no answer (its `lastRequest` error). */
const REQUEST_TIMED_OUT: ErrorData = {
  code: 'TIMEOUT',
  message: 'The wallet did not answer in time.',
}
const REQUEST_ABANDONED: ErrorData = { code: 'ABORTED', message: 'The request was given up.' }
/** The connection a paired session gives: its first namespace's accounts (CAIP-10 → address). */
const pairedConnection = (session: PairedSessionData): ConnectionData | null => {
  for (const namespace of ['eip155', 'solana'] as const) {
    const first = session.namespaces[namespace]?.accounts[0]
    if (first === undefined) continue
    const chainId = first.split(':').slice(0, 2).join(':')
    return {
      walletId: null,
      connectorId: 'relay',
      namespace,
      chainId,
      accounts: (session.namespaces[namespace]?.accounts ?? [])
        .filter((account) => account.startsWith(`${chainId}:`))
        .map((account) => account.slice(chainId.length + 1)),
    }
  }
  return null
}

const doneOutput = <T>(event: AnyEvent) => (event as DoneActorEvent<T>).output
const actorError = (event: AnyEvent) => (event as ErrorActorEvent).error
/** When an actor's answer (or failure) was observed, if it says. */
const observedAt = (event: AnyEvent, fallback: number): number => {
  const e = event as Partial<DoneActorEvent<{ at?: unknown }> & ErrorActorEvent> & { at?: unknown }
  const at = e.output?.at ?? (e.error as { at?: unknown } | undefined)?.at ?? e.at
  return typeof at === 'number' ? at : fallback
}

/** A failed actor whose error has `code` ends in `target`, keeping the error. */
const endOnCode = (code: AppErrorCode, target: string) =>
  ({
    guard: { type: 'failedWith', params: { code } },
    target,
    actions: 'storeError',
  }) as const

/** The output of the final state `status`: the pairing ends so, with its session and error. */
const ended =
  (status: PairingFinalStatus) =>
  ({ context }: { context: PairingContext }): PairingOutput => ({
    status,
    session: context.session,
    error: context.error,
  })

type RelayConnectionSnapshot = SnapshotFrom<typeof relayConnectionMachine>
type RelayStatus = Extract<PairingEvent, { type: 'RELAY.STATUS' }>

/** The connectivity each status of the relay connection means (not connected yet while `idle`). */
const CONNECTIVITY: Record<TopState<RelayConnectionSnapshot['value']>, RelayConnectivity> = {
  idle: 'connecting',
  connecting: 'connecting',
  online: 'online',
  reconnecting: 'reconnecting',
  offline: 'offline',
  closed: 'offline',
}

/** The `RELAY.STATUS` a snapshot of the `relayConnection` child stands for: its status, and why. */
const relayStatusOf = ({ value, context }: RelayConnectionSnapshot): RelayStatus => {
  const status = CONNECTIVITY[topState(value)]
  return {
    type: 'RELAY.STATUS',
    status,
    ...(status !== 'online' && context.error ? { error: context.error } : {}),
    ...(status === 'reconnecting' && context.attempt > 0 ? { attempt: context.attempt } : {}),
  }
}

const toStatus = (status: RelayConnectivity, target: string) =>
  ({ guard: { type: 'relayStatusIs', params: { status } }, target }) as const

/**
 * The dApp side of relay pairing. Two regions while active: the flow (token → relay → proposal
 * answered → keys settled → paired, with requests, pings and delete) and the relay's connectivity
 * (connecting / online / reconnecting / offline, as the `relayConnection` child — the
 * relay-connection chart, invoked with its own backoff, keepalive and token-refresh delays —
 * reports it). Pure: every
 * actor is provided by name (see `createPairingActors`); no secret enters context — topics and keys
 * live in the pairing vault under `pairingId`. Only `paired.idle` is tagged `resumable`.
 */
export const pairingMachine = setup({
  types: {
    context: {} as PairingContext,
    events: {} as PairingEvent,
    input: {} as PairingInput,
    output: {} as PairingOutput,
    tags: {} as typeof PAIRING_RESUMABLE_TAG,
  },
  actors: {
    /** The relay connection while the flow is active (the relay-connection chart); reports its status. */
    relayConnection: relayConnectionMachine,
    fetchRelayToken: fromPromise<ActorTime, PairingRefInput>(
      notProvided('fetchRelayToken', 'machine.provide or the factory'),
    ),
    connectRelay: fromPromise<ActorTime, PairingRefInput>(
      notProvided('connectRelay', 'machine.provide or the factory'),
    ),
    /** Publishes the proposal on the pairing topic and waits for the wallet's answer. */
    awaitApproval: fromPromise<ApprovalOutput, AwaitApprovalInput>(
      notProvided('awaitApproval', 'machine.provide or the factory'),
    ),
    /** Derives the session key and topic, subscribes to the topic, forgets the pairing. */
    settleSession: fromPromise<ActorTime, SettleSessionInput>(
      notProvided('settleSession', 'machine.provide or the factory'),
    ),
    /**
     * Keeps the session topic subscribed; reports the wallet's delete, and the time whenever it
     * (re)starts — after a restore too — so the `sessionExpiry` delay counts only what is left.
     */
    maintainSession: fromCallback<EventObject, PairingRefInput>(
      notProvided('maintainSession', 'machine.provide or the factory'),
    ),
    sendRequest: fromPromise<ActorTime, SendRequestInput>(
      notProvided('sendRequest', 'machine.provide or the factory'),
    ),
    pingPeer: fromPromise<ActorTime, PairingRefInput>(
      notProvided('pingPeer', 'machine.provide or the factory'),
    ),
    deleteSession: fromPromise<ActorTime, PairingRefInput>(
      notProvided('deleteSession', 'machine.provide or the factory'),
    ),
  },
  guards: {
    failedWith: ({ event }, params: { code: AppErrorCode }) =>
      toErrorData(actorError(event), 'RELAY_ERROR').code === params.code,
    relayStatusIs: ({ event }, params: { status: RelayConnectivity }) =>
      event.type === 'RELAY.STATUS' && event.status === params.status,
    /** The request in flight is the one `ABANDON` gives up. */
    abandonsRequestInFlight: ({ context, event }) =>
      event.type === 'ABANDON' && context.request?.requestId === event.requestId,
    /** The oldest queued work is of `kind`. */
    nextIs: ({ context }, kind: PairingWork['kind']) => context.queue[0]?.kind === kind,
  },
  actions: {
    recordClock: assign({
      clock: ({ context, event }) => Math.max(context.clock, observedAt(event, context.clock)),
    }),
    storeApproval: assign(({ context, event }) => {
      const { session, at } = doneOutput<ApprovalOutput>(event)
      return { session, connection: pairedConnection(session), clock: Math.max(context.clock, at) }
    }),
    storeError: assign(({ context, event }) => ({
      error: toErrorData(actorError(event), 'RELAY_ERROR'),
      clock: Math.max(context.clock, observedAt(event, context.clock)),
    })),
    assignProposalExpired: assign({
      error: {
        code: 'SESSION_EXPIRED' as const,
        message: 'The wallet did not answer the proposal before it expired.',
      },
    }),
    assignSessionExpired: assign({
      error: { code: 'SESSION_EXPIRED' as const, message: 'The relay session reached its expiry.' },
    }),
    assignPeerDeleted: assign(({ event }) => ({
      error:
        event.type === 'PEER.DELETED'
          ? {
              code: 'NOT_CONNECTED' as const,
              message: `The wallet ended the session: ${event.message}`,
            }
          : null,
    })),
    storePeerAccounts: assign(({ context, event }) => {
      if (event.type !== 'PEER.ACCOUNTS' || context.session === null) return {}
      const namespace = event.chainId.split(':')[0] ?? ''
      const settled = context.session.namespaces[namespace]
      if (settled === undefined) return {}
      const prefix = `${event.chainId}:`
      const accounts = [
        ...event.accounts.map((account) => prefix + account),
        ...settled.accounts.filter((account) => !account.startsWith(prefix)),
      ]
      const session = {
        ...context.session,
        namespaces: { ...context.session.namespaces, [namespace]: { ...settled, accounts } },
      }
      return { session, connection: pairedConnection(session) }
    }),
    assignCancelled: assign({
      error: { code: 'ABORTED' as const, message: 'Pairing was cancelled.' },
    }),
    storeRequest: assign({
      request: ({ event }) =>
        event.type === 'REQUEST' ? { requestId: event.requestId, method: event.method } : null,
    }),
    storePing: assign({
      ping: ({ event }) => (event.type === 'PING' ? (event.pingId ?? 'ping') : null),
    }),
    enqueue: assign({
      queue: ({ context, event }) => {
        const work: PairingWork | null =
          event.type === 'REQUEST'
            ? { kind: 'request', requestId: event.requestId, method: event.method }
            : event.type === 'PING'
              ? { kind: 'ping', pingId: event.pingId ?? 'ping' }
              : null
        return work === null ? context.queue : [...context.queue, work]
      },
    }),
    /** A queued request the caller gave up (`ABANDON`) will not be sent. */
    dropAbandoned: assign({
      queue: ({ context, event }) =>
        event.type === 'ABANDON'
          ? context.queue.filter(
              (work) => work.kind !== 'request' || work.requestId !== event.requestId,
            )
          : context.queue,
    }),
    /** The oldest queued work becomes the request or the ping in flight. */
    dequeue: assign(({ context }) => {
      const [next, ...rest] = context.queue
      if (next?.kind === 'request') {
        return { queue: rest, request: { requestId: next.requestId, method: next.method } }
      }
      return { queue: rest, ping: next?.kind === 'ping' ? next.pingId : null }
    }),
    /** The request in flight ended with no answer (timed out, given up): `error` says why. */
    recordRequestUnanswered: assign(({ context }, error: ErrorData) => ({
      request: null,
      lastRequest:
        context.request === null
          ? null
          : { ...context.request, status: 'failed' as const, error, at: context.clock },
    })),
    recordAnswered: assign(({ context, event }) => {
      const at = observedAt(event, context.clock)
      return {
        clock: Math.max(context.clock, at),
        request: null,
        lastRequest:
          context.request === null
            ? null
            : { ...context.request, status: 'answered' as const, error: null, at },
      }
    }),
    recordRequestFailed: assign(({ context, event }) => {
      const at = observedAt(event, context.clock)
      return {
        clock: Math.max(context.clock, at),
        request: null,
        lastRequest:
          context.request === null
            ? null
            : {
                ...context.request,
                status: 'failed' as const,
                error: toErrorData(actorError(event), 'RELAY_ERROR'),
                at,
              },
      }
    }),
    recordPing: assign(({ context, event }) => {
      const at = observedAt(event, context.clock)
      return {
        clock: Math.max(context.clock, at),
        lastPingAt: at,
        ping: null,
        lastPing: { pingId: context.ping ?? 'ping', status: 'answered' as const, error: null, at },
      }
    }),
    recordPingFailed: assign(({ context, event }) => {
      const at = observedAt(event, context.clock)
      const error = event.type.startsWith('xstate.error.')
        ? toErrorData(actorError(event), 'RELAY_ERROR')
        : { code: 'TIMEOUT' as const, message: 'The wallet did not answer the ping in time.' }
      return {
        clock: Math.max(context.clock, at),
        ping: null,
        lastPing: { pingId: context.ping ?? 'ping', status: 'failed' as const, error, at },
      }
    }),
    recordRelayStatus: assign({
      relayError: ({ event }) =>
        event.type === 'RELAY.STATUS' && event.status !== 'online' && event.error
          ? event.error
          : null,
    }),
    forwardReconnect: sendTo('relayConnection', { type: 'RECONNECT' }),
    /** Raises what the `relayConnection` child reports as `RELAY.STATUS`, which the connectivity region reads. */
    forwardRelayStatus: raise((_, status: RelayStatus) => status),
  },
  delays: {
    /** Until the proposal's absolute expiry, from the latest observed time. */
    proposalExpiry: ({ context }) => Math.max(0, context.proposalExpiresAt - context.clock),
    /** Until the session's absolute expiry, from the latest observed time (what is left of it). */
    sessionExpiry: ({ context }) =>
      Math.max(0, (context.session?.expiresAt ?? context.clock) - context.clock),
    /** A wallet request or ping that long without an answer fails with `TIMEOUT`. */
    requestTimeout: ({ context }) => context.requestTimeoutMs,
    /** The delete is sent at most this long; the session ends anyway. */
    deleteTimeout: 30_000,
  },
}).createMachine({
  id: 'pairing',
  initial: 'active',
  context: ({ input }) => ({
    pairingId: input.pairingId,
    proposalId: input.proposalId,
    relayUrl: input.relayUrl,
    requiredNamespaces: input.requiredNamespaces,
    metadata: input.metadata,
    proposalExpiresAt: input.proposalExpiresAt,
    clock: input.startedAt,
    session: null,
    connection: null,
    requestTimeoutMs: input.requestTimeoutMs ?? 300_000,
    relay: input.relay ?? relayConnectionSettings(),
    request: null,
    lastRequest: null,
    ping: null,
    lastPing: null,
    lastPingAt: null,
    queue: [],
    relayError: null,
    error: null,
  }),
  states: {
    active: {
      type: 'parallel',
      invoke: {
        id: 'relayConnection',
        systemId: 'relayConnection',
        src: 'relayConnection',
        input: ({ context }) => ({
          ...context.relay,
          startedAt: context.clock,
          connectionId: context.pairingId,
        }),
        // The child's status is its snapshot's top-level state; a snapshot shows where each of
        // its steps settled, and every status waits for an actor or an event, so none is missed.
        onSnapshot: {
          actions: {
            type: 'forwardRelayStatus',
            params: ({ event: { snapshot } }) => relayStatusOf(snapshot),
          },
        },
        // A done child sends no snapshot: `closed` (the relay client was closed) is offline.
        onDone: {
          actions: {
            type: 'forwardRelayStatus',
            params: ({ event: { output } }) => ({
              type: 'RELAY.STATUS' as const,
              status: 'offline' as const,
              ...(output.error ? { error: output.error } : {}),
            }),
          },
        },
      },
      on: { CANCEL: { target: 'cancelled', actions: 'assignCancelled' } },
      states: {
        flow: {
          initial: 'requestingToken',
          states: {
            requestingToken: {
              invoke: {
                id: 'fetchRelayToken',
                src: 'fetchRelayToken',
                input: ({ context }) => ({ pairingId: context.pairingId }),
                onDone: { target: 'connectingRelay', actions: 'recordClock' },
                onError: { target: '#pairing.failed', actions: 'storeError' },
              },
            },
            connectingRelay: {
              invoke: {
                id: 'connectRelay',
                src: 'connectRelay',
                input: ({ context }) => ({ pairingId: context.pairingId }),
                onDone: { target: 'awaitingApproval', actions: 'recordClock' },
                onError: { target: '#pairing.failed', actions: 'storeError' },
              },
            },
            awaitingApproval: {
              description: 'The proposal is on the relay: show the URI until the wallet answers.',
              invoke: {
                id: 'awaitApproval',
                src: 'awaitApproval',
                input: ({ context }) => ({
                  pairingId: context.pairingId,
                  proposalId: context.proposalId,
                  requiredNamespaces: context.requiredNamespaces,
                  metadata: context.metadata,
                  proposalExpiresAt: context.proposalExpiresAt,
                }),
                onDone: { target: 'settlingKeys', actions: 'storeApproval' },
                onError: [
                  endOnCode('USER_REJECTED', '#pairing.rejected'),
                  endOnCode('SESSION_EXPIRED', '#pairing.expired'),
                  { target: '#pairing.failed', actions: 'storeError' },
                ],
              },
              after: {
                proposalExpiry: { target: '#pairing.expired', actions: 'assignProposalExpired' },
              },
            },
            settlingKeys: {
              invoke: {
                id: 'settleSession',
                src: 'settleSession',
                input: ({ context }) => ({
                  pairingId: context.pairingId,
                  peerPublicKey: context.session?.peer.publicKey ?? '',
                }),
                onDone: { target: 'paired', actions: 'recordClock' },
                onError: { target: '#pairing.failed', actions: 'storeError' },
              },
            },
            paired: {
              description: 'Settled: requests, pings and delete travel on the session topic.',
              invoke: {
                id: 'maintainSession',
                src: 'maintainSession',
                input: ({ context }) => ({ pairingId: context.pairingId }),
              },
              on: {
                'PEER.DELETED': { target: '#pairing.disconnected', actions: 'assignPeerDeleted' },
                // The wallet's accounts changed: the session and its connection follow.
                'PEER.ACCOUNTS': { actions: 'storePeerAccounts' },
              },
              initial: 'idle',
              states: {
                idle: {
                  tags: [PAIRING_RESUMABLE_TAG],
                  description:
                    'Ready for requests; the session expires after what is left of its lifetime.',
                  // Work that waited while another request or ping was in flight goes first.
                  always: [
                    {
                      guard: { type: 'nextIs', params: 'request' },
                      target: 'requesting',
                      actions: 'dequeue',
                    },
                    {
                      guard: { type: 'nextIs', params: 'ping' },
                      target: 'pinging',
                      actions: 'dequeue',
                    },
                  ],
                  on: {
                    REQUEST: { target: 'requesting', actions: 'storeRequest' },
                    PING: { target: 'pinging', actions: 'storePing' },
                    DISCONNECT: 'deleting',
                    // The clock again (a restored actor): count down from it.
                    'SESSION.WATCHING': { target: 'idle', reenter: true, actions: 'recordClock' },
                  },
                  after: {
                    sessionExpiry: { target: '#pairing.expired', actions: 'assignSessionExpired' },
                  },
                },
                requesting: {
                  invoke: {
                    id: 'sendRequest',
                    src: 'sendRequest',
                    input: ({ context }) => ({
                      pairingId: context.pairingId,
                      requestId: context.request?.requestId ?? '',
                    }),
                    onDone: { target: 'idle', actions: 'recordAnswered' },
                    onError: { target: 'idle', actions: 'recordRequestFailed' },
                  },
                  on: {
                    DISCONNECT: 'deleting',
                    REQUEST: { actions: 'enqueue' },
                    PING: { actions: 'enqueue' },
                    // The caller gave up: stop waiting for the wallet (its late answer is dropped).
                    ABANDON: [
                      {
                        guard: 'abandonsRequestInFlight',
                        target: 'idle',
                        actions: { type: 'recordRequestUnanswered', params: REQUEST_ABANDONED },
                      },
                      { actions: 'dropAbandoned' },
                    ],
                  },
                  after: {
                    requestTimeout: {
                      target: 'idle',
                      actions: { type: 'recordRequestUnanswered', params: REQUEST_TIMED_OUT },
                    },
                  },
                },
                pinging: {
                  invoke: {
                    id: 'pingPeer',
                    src: 'pingPeer',
                    input: ({ context }) => ({ pairingId: context.pairingId }),
                    onDone: { target: 'idle', actions: 'recordPing' },
                    onError: { target: 'idle', actions: 'recordPingFailed' },
                  },
                  on: {
                    DISCONNECT: 'deleting',
                    REQUEST: { actions: 'enqueue' },
                    PING: { actions: 'enqueue' },
                    ABANDON: { actions: 'dropAbandoned' },
                  },
                  after: { requestTimeout: { target: 'idle', actions: 'recordPingFailed' } },
                },
                deleting: {
                  invoke: {
                    id: 'deleteSession',
                    src: 'deleteSession',
                    input: ({ context }) => ({ pairingId: context.pairingId }),
                    onDone: { target: '#pairing.disconnected', actions: 'recordClock' },
                    onError: { target: '#pairing.disconnected', actions: 'recordClock' },
                  },
                  after: { deleteTimeout: '#pairing.disconnected' },
                },
              },
            },
          },
        },
        connectivity: {
          initial: 'connecting',
          on: {
            'RELAY.STATUS': [
              { ...toStatus('online', '.online'), actions: 'recordRelayStatus' },
              { ...toStatus('reconnecting', '.reconnecting'), actions: 'recordRelayStatus' },
              { ...toStatus('offline', '.offline'), actions: 'recordRelayStatus' },
              { ...toStatus('connecting', '.connecting'), actions: 'recordRelayStatus' },
            ],
          },
          states: {
            connecting: {},
            online: {},
            reconnecting: {},
            offline: {
              description: 'The relay client gave up; RECONNECT tries again.',
              on: { RECONNECT: { actions: 'forwardReconnect' } },
            },
          },
        },
      },
    },
    rejected: { type: 'final', output: ended('rejected') },
    expired: { type: 'final', output: ended('expired') },
    failed: { type: 'final', output: ended('failed') },
    disconnected: { type: 'final', output: ended('disconnected') },
    cancelled: { type: 'final', output: ended('cancelled') },
  },
  output: finalStateOutput<PairingOutput>(),
})

/** The pairing statechart's type (`typeof pairingMachine`). */
export type PairingMachine = typeof pairingMachine
