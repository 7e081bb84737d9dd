import {
  assign,
  type DoneActorEvent,
  type ErrorActorEvent,
  fromCallback,
  fromPromise,
  setup,
  spawnChild,
  stopChild,
} from 'xstate'
import { reconnectWait } from '../../src/relay/client/backoff'
import { isPermanentTokenFailure } from '../../src/relay/client/errors'
import { RELAY_CLOSE_CODES } from '../../src/wire/relay'
import { type ErrorData, toErrorData } from '../shared/error-data'
import { finalStateOutput } from '../shared/final-state'
import { notProvided } from '../shared/not-provided'
import {
  type ActorTime,
  type ConnectionRef,
  type FetchTokenInput,
  RELAY_ONLINE_TAG,
  RELAY_RESUMABLE_TAG,
  type RelayConnectionContext,
  type RelayConnectionEvent,
  type RelayConnectionInput,
  type RelayConnectionOutput,
  type TokenOutput,
} from './relay-connection.types'

type AnyEvent = RelayConnectionEvent | { type: string }
const doneOutput = <T>(event: AnyEvent) => (event as DoneActorEvent<T>).output
const actorError = (event: AnyEvent) => (event as ErrorActorEvent).error
const relayError = (message: string): ErrorData => ({ code: 'RELAY_ERROR', message })

type ErrorAction =
  | 'storeError'
  | 'assignClosed'
  | 'assignRefused'
  | 'assignKeepaliveMissed'
  | 'assignResubscribeFailed'

/** A lost connection: wait for the next attempt while the budget lasts, else offline. */
const retryOr = <A extends ErrorAction>(error: A) =>
  [
    {
      guard: 'attemptsLeft',
      target: '#relayConnection.reconnecting.waiting',
      actions: ['countAttempt', error],
    },
    { target: '#relayConnection.offline', actions: error },
  ] as const

/** The error a closed socket leaves (1006 when the close carried no code). */
const closedError = (event: RelayConnectionEvent) =>
  relayError(
    `The relay connection closed (code ${event.type === 'SOCKET.CLOSED' ? event.code : 1006}).`,
  )

/** Every actor works in the connection's environment. */
const connectionRef = ({ context }: { context: RelayConnectionContext }): ConnectionRef => ({
  connectionId: context.connectionId,
})

/** The socket closed after it opened: 4001 means a fresh token at once, anything else backs off. */
const ON_OPEN_SOCKET_CLOSED = [
  {
    guard: 'tokenExpiredClose',
    target: '#relayConnection.reconnecting.token',
    actions: 'assignTokenExpired',
  },
  ...retryOr('assignClosed'),
] as const

/** The token source failed: a refusal is final, anything else backs off. */
const ON_TOKEN_ERROR = [
  { guard: 'permanentTokenFailure', target: '#relayConnection.offline', actions: 'storeError' },
  ...retryOr('storeError'),
] as const

const relayConnectionSetup = /* @__PURE__ */ setup({
  types: {
    context: {} as RelayConnectionContext,
    events: {} as RelayConnectionEvent,
    input: {} as RelayConnectionInput,
    output: {} as RelayConnectionOutput,
    tags: {} as typeof RELAY_ONLINE_TAG | typeof RELAY_RESUMABLE_TAG,
  },
  actors: {
    /** Resolves the token grant to open with (the cached one unless `stale`). */
    fetchToken: fromPromise<TokenOutput, FetchTokenInput>(
      notProvided('fetchToken', 'machine.provide or createRelayClient'),
    ),
    /** Owns the WebSocket: opens it with the token, feeds its frames to the client, reports open/close. */
    socket: fromCallback<{ type: string }, ConnectionRef>(
      notProvided('socket', 'machine.provide or createRelayClient'),
    ),
    /** On a fresh socket: subscribes every topic again and fetches its mailbox. */
    settle: fromPromise<ActorTime, ConnectionRef>(
      notProvided('settle', 'machine.provide or createRelayClient'),
    ),
    /** `scr_ping` (browsers cannot see WebSocket pings); the chart decides when it is too late. */
    ping: fromPromise<ActorTime, ConnectionRef>(
      notProvided('ping', 'machine.provide or createRelayClient'),
    ),
  },
  guards: {
    /** Another reconnect attempt fits the budget. */
    attemptsLeft: ({ context }) => context.attempt < context.backoff.maxAttempts,
    /** The token source refused for good (a 4xx other than 408/429, or a bad configuration). */
    permanentTokenFailure: ({ event }) => isPermanentTokenFailure(actorError(event)),
    /** The relay closed the socket because the token expired (4001). */
    tokenExpiredClose: ({ event }) =>
      event.type === 'SOCKET.CLOSED' && event.code === RELAY_CLOSE_CODES.TOKEN_EXPIRED,
    /** Keepalive pings are on. */
    keepaliveOn: ({ context }) => context.keepaliveMs > 0,
  },
  actions: {
    openSocket: spawnChild('socket', { id: 'socket', input: connectionRef }),
    dropSocket: stopChild('socket'),
    countAttempt: assign({ attempt: ({ context }) => context.attempt + 1 }),
    resetAttempts: assign({ attempt: 0 }),
    storeToken: assign(({ event }) => {
      const { expiresAt, at } = doneOutput<TokenOutput>(event)
      return { tokenExpiresAt: expiresAt, tokenStale: false, clock: at }
    }),
    goneOnline: assign(({ context, event }) => ({
      attempt: 0,
      error: null,
      clock: Math.max(context.clock, doneOutput<ActorTime>(event).at),
    })),
    recordClock: assign({
      clock: ({ context, event }) => Math.max(context.clock, doneOutput<ActorTime>(event).at),
    }),
    storeError: assign({ error: ({ event }) => toErrorData(actorError(event), 'RELAY_ERROR') }),
    assignClosed: assign({ error: ({ event }) => closedError(event) }),
    assignRefused: assign({ tokenStale: true, error: ({ event }) => closedError(event) }),
    assignTokenExpired: assign({
      attempt: 0,
      tokenStale: true,
      error: relayError('The relay token expired.'),
    }),
    assignKeepaliveMissed: assign({
      error: relayError('The relay did not answer scr_ping in time.'),
    }),
    assignAborted: assign({
      error: { code: 'ABORTED' as const, message: 'The relay client was closed.' },
    }),
  },
  delays: {
    /** Exponential backoff from `backoff.baseMs` to `maxMs` (jitter provided by the client). */
    reconnectBackoff: ({ context }) =>
      reconnectWait(context.attempt, 0.5, context.backoff, context.error?.backendCode),
    keepalive: ({ context }) => context.keepaliveMs,
    requestTimeout: ({ context }) => context.requestTimeoutMs,
    /** Reconnect with a new token 5 s before the relay would close with 4001 (at least 1 s on). */
    tokenRefresh: ({ context }) =>
      Math.max(1000, (context.tokenExpiresAt ?? 0) - 5000 - context.clock),
  },
})

/**
 * The handshake, the same in `connecting` and `reconnecting`: a token, the socket, the topics.
 * `token` stops the socket a lost connection left (a first connect has none: stopping it is a no-op).
 */
const HANDSHAKE = {
  token: /* @__PURE__ */ relayConnectionSetup.createStateConfig({
    entry: 'dropSocket',
    invoke: {
      id: 'fetchToken',
      src: 'fetchToken',
      input: ({ context }) => ({ ...connectionRef({ context }), stale: context.tokenStale }),
      onDone: { target: 'opening', actions: 'storeToken' },
      onError: ON_TOKEN_ERROR,
    },
  }),
  opening: /* @__PURE__ */ relayConnectionSetup.createStateConfig({
    entry: 'openSocket',
    // Refused before it opened (its token too, maybe): back off, then a new token.
    on: { 'SOCKET.OPEN': 'settling', 'SOCKET.CLOSED': retryOr('assignRefused') },
  }),
  settling: /* @__PURE__ */ relayConnectionSetup.createStateConfig({
    invoke: {
      id: 'settle',
      src: 'settle',
      input: connectionRef,
      onDone: { target: '#relayConnection.online', actions: 'goneOnline' },
      onError: retryOr('storeError'),
    },
    on: { 'SOCKET.CLOSED': ON_OPEN_SOCKET_CLOSED },
  }),
}

/**
 * One connection to the relay (SPEC section 5), as a chart: `idle` → `connecting` (token, socket
 * open, topics subscribed again) → `online` (keepalive pings, a token refresh before expiry) →
 * `reconnecting` (backoff, then the same steps) → `offline` once the attempts run out or the token
 * is refused; `RECONNECT` starts over; `CLOSE` ends it. The status is the top-level state.
 *
 * Pure: the timing is in named delays (`reconnectBackoff`, `keepalive`, `requestTimeout`,
 * `tokenRefresh`) computed from context, the I/O in provided actors (`fetchToken`, the `socket`
 * callback actor that owns the WebSocket, `settle` that resubscribes, `ping`); see
 * `createRelayConnectionActors`. No token or topic enters context. Its host — the relay client, or
 * the pairing that invokes it — follows its snapshots (the top-level state is the status); `closed`
 * gives the error it closed with as its output.
 */
export const relayConnectionMachine = /* @__PURE__ */ relayConnectionSetup.createMachine({
  id: 'relayConnection',
  initial: 'idle',
  tags: [RELAY_RESUMABLE_TAG],
  context: ({ input }) => ({
    backoff: input.backoff,
    keepaliveMs: input.keepaliveMs,
    requestTimeoutMs: input.requestTimeoutMs,
    startedAt: input.startedAt,
    connectionId: input.connectionId ?? '',
    attempt: 0,
    clock: input.startedAt,
    tokenExpiresAt: null,
    tokenStale: false,
    error: null,
  }),
  on: { CLOSE: { target: '.closed', actions: 'assignAborted' } },
  output: finalStateOutput<RelayConnectionOutput>(),
  states: {
    idle: {
      on: { CONNECT: 'connecting' },
    },
    connecting: {
      description: 'The first connection: token, socket, topics.',
      initial: 'token',
      states: HANDSHAKE,
    },
    online: {
      tags: [RELAY_ONLINE_TAG],
      initial: 'ready',
      on: { 'SOCKET.CLOSED': ON_OPEN_SOCKET_CLOSED },
      after: {
        tokenRefresh: { target: 'reconnecting.token', actions: 'assignTokenExpired' },
      },
      states: {
        ready: {
          after: { keepalive: { guard: 'keepaliveOn', target: 'pinging' } },
        },
        pinging: {
          invoke: {
            id: 'ping',
            src: 'ping',
            input: connectionRef,
            onDone: { target: 'ready', actions: 'recordClock' },
            // Refused or lost: a lost socket reports its close; a refusal is no reason to drop.
            onError: 'ready',
          },
          after: { requestTimeout: retryOr('assignKeepaliveMissed') },
        },
      },
    },
    reconnecting: {
      description: 'Lost: back off, then token, socket, topics again.',
      initial: 'waiting',
      // Mid-attempt: a fresh budget, the attempt goes on.
      on: { RECONNECT: { actions: 'resetAttempts' } },
      states: {
        waiting: {
          entry: 'dropSocket',
          after: { reconnectBackoff: 'token' },
          on: { RECONNECT: { target: 'token', actions: 'resetAttempts' } },
        },
        token: HANDSHAKE.token,
        opening: HANDSHAKE.opening,
        settling: HANDSHAKE.settling,
      },
    },
    offline: {
      description: 'Gave up (attempts spent, token refused); RECONNECT or CONNECT tries again.',
      entry: 'dropSocket',
      on: {
        RECONNECT: { target: 'reconnecting.token', actions: 'resetAttempts' },
        CONNECT: { target: 'reconnecting.token', actions: 'resetAttempts' },
      },
    },
    closed: {
      type: 'final',
      entry: 'dropSocket',
      output: ({ context }): RelayConnectionOutput => ({ error: context.error }),
    },
  },
})

/** The relay-connection statechart's type (`typeof relayConnectionMachine`). */
export type RelayConnectionMachine = typeof relayConnectionMachine
