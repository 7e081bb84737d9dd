import { type Actor, assign, fromPromise, type SnapshotFrom, setup } from 'xstate'
import type { AppErrorCode } from '../../src/errors/app-error'
import { sessionPollingMachine } from '../session-polling/session-polling.machine'
import type { SessionPollingOutput } from '../session-polling/session-polling.types'
import { type ErrorData, toErrorData } from '../shared/error-data'
import { finalStateOutput } from '../shared/final-state'
import { notProvided } from '../shared/not-provided'
import type {
  CreateUniversalLinkSessionInput,
  OpenWalletInput,
  UniversalLinkContext,
  UniversalLinkEvent,
  UniversalLinkFinalStatus,
  UniversalLinkInput,
  UniversalLinkOutput,
  UniversalLinkSession,
  UniversalLinkTag,
} from './universal-link.types'

/** The error of a finished poll (a poll that reached its target has none). */
const pollError = (output: SessionPollingOutput): ErrorData | null =>
  output.ok ? null : output.error

/** Why the flow ended: nothing after a disconnect, else the error it kept or one for its status. */
const endError = (status: UniversalLinkFinalStatus, error: ErrorData | null): ErrorData | null =>
  status === 'disconnected'
    ? null
    : (error ?? {
        code: status === 'cancelled' ? 'ABORTED' : 'SESSION_FAILED',
        message: `The wallet flow ended: ${status}.`,
      })

/** The output of the final state `status`: the flow ends so, with what it kept. */
const ended =
  (status: UniversalLinkFinalStatus) =>
  ({ context }: { context: UniversalLinkContext }): UniversalLinkOutput => ({
    status,
    walletAddress: context.walletAddress,
    signature: context.signature,
    txSignature: context.txSignature,
    error: endError(status, context.error),
  })

type PollDone = { event: { output: SessionPollingOutput } }
const pollOutput = ({ event }: PollDone) => event.output
const pollErrorOf = ({ event }: PollDone) => pollError(event.output)
/** A poll that ended with an error of `code` goes to `target`, keeping the error. */
const endOnCode = <Target extends string>(code: AppErrorCode, target: Target) =>
  ({
    guard: {
      type: 'pollFailedWith',
      params: ({ event }: PollDone) => ({ output: event.output, code }),
    },
    target,
    actions: { type: 'storeError', params: pollErrorOf },
  }) as const

/** Routes a finished poll: success to `target`, else the error's code picks the final state. */
const onPollDone = <Target extends string>(
  target: Target,
  store: 'storeConnection' | 'storeSignature',
) =>
  [
    {
      guard: { type: 'pollSucceeded', params: pollOutput },
      target,
      actions: { type: store, params: pollOutput },
    },
    endOnCode('USER_REJECTED', 'rejected'),
    endOnCode('SESSION_EXPIRED', 'expired'),
    endOnCode('ABORTED', 'cancelled'),
    { target: 'failed', actions: { type: 'storeError', params: pollErrorOf } },
  ] as const

/**
 * The mobile flow over a universal link: create a backend session, open the wallet app, wait for the
 * wallet's callback (the `sessionPolling` machine as an invoked child, `poll`), then any number of
 * signatures, each of which returns the flow to `connected`. The backend accepts one signature per
 * session (it burns the nonce), so each further signature renews the session: the wallet is opened
 * to connect the new session, then to sign. States tagged `resumable` hold only
 * idempotent work (polling), so their persisted snapshot — the poller's included, with its attempts,
 * backoff and deadline — can be restored after the page reload that follows the trip to the wallet.
 * The wallet is opened by the `openWallet` actor, invoked in the `opening…` states, which are not
 * resumable: a restore never reopens the wallet. The session token never enters this machine: the
 * actors read it from a vault keyed by session id.
 */
export const universalLinkMachine = setup({
  types: {
    context: {} as UniversalLinkContext,
    events: {} as UniversalLinkEvent,
    input: {} as UniversalLinkInput,
    output: {} as UniversalLinkOutput,
    tags: {} as UniversalLinkTag,
  },
  actors: {
    /** Creates the backend session (POST /sessions) and keeps its token in the vault. */
    createSession: fromPromise<UniversalLinkSession, CreateUniversalLinkSessionInput>(async () => {
      throw new Error('universalLinkMachine: provide the createSession actor')
    }),
    /** Polls the session until the wallet reports (provide it bound to the client and vault). */
    poll: sessionPollingMachine,
    /** Builds the wallet's link for the session and opens it (the host's: `openLink`, a window). */
    openWallet: fromPromise<void, OpenWalletInput>(
      notProvided('openWallet', 'machine.provide or the connector'),
    ),
  },
  actions: {
    storeSession: assign({ session: (_, session: UniversalLinkSession) => session }),
    /** The wallet's address, and the connection it gives in the shape every flow reports. */
    storeConnection: assign(({ context }, output: SessionPollingOutput) => {
      const walletAddress = output.result?.walletAddress ?? null
      return {
        walletAddress,
        connection: {
          walletId: context.walletId,
          connectorId: context.walletId,
          namespace: context.chainId.startsWith('solana:')
            ? ('solana' as const)
            : ('eip155' as const),
          chainId: context.chainId,
          accounts: walletAddress ? [walletAddress] : [],
        },
      }
    }),
    storeSignature: assign(({ context }, output: SessionPollingOutput) => ({
      signature: output.result?.signature ?? null,
      txSignature: output.result?.txSignature ?? null,
      signatures: context.signatures + 1,
      request: null,
    })),
    storeRequest: assign({
      request: (_, request: NonNullable<UniversalLinkContext['request']>) => request,
      signature: null,
      txSignature: null,
      error: null,
    }),
    storeError: assign({
      error: (_, error: unknown) => (error === null ? null : toErrorData(error, 'SESSION_FAILED')),
    }),
  },
  guards: {
    /** This session already carried a signature (the backend accepts one per session nonce). */
    sessionUsed: ({ context }) => context.signatures > 0,
    /** The poll reached its target. */
    pollSucceeded: (_, output: SessionPollingOutput) => output.ok,
    /** The poll ended with an error of this code. */
    pollFailedWith: (_, params: { output: SessionPollingOutput; code: AppErrorCode }) =>
      !params.output.ok && params.output.error.code === params.code,
  },
}).createMachine({
  id: 'universalLink',
  initial: 'creatingSession',
  context: ({ input }) => ({
    walletId: input.walletId,
    chainId: input.chainId,
    session: null,
    walletAddress: null,
    connection: null,
    request: null,
    signature: null,
    txSignature: null,
    signatures: 0,
    error: null,
    pollIntervalMs: input.pollIntervalMs ?? null,
  }),
  states: {
    creatingSession: {
      invoke: {
        id: 'createSession',
        src: 'createSession',
        input: ({ context }) => ({ chainId: context.chainId, walletId: context.walletId }),
        onDone: {
          target: 'openingWallet',
          actions: { type: 'storeSession', params: ({ event }) => event.output },
        },
        onError: {
          target: 'failed',
          actions: {
            type: 'storeError',
            params: ({ event }: { event: { error: unknown } }) => event.error,
          },
        },
      },
      on: { CANCEL: 'cancelled' },
    },
    openingWallet: {
      invoke: {
        id: 'openWallet',
        src: 'openWallet',
        input: ({ context }) => openWalletInput(context, 'connect'),
        onDone: 'awaitingWallet',
        // The link did not open: the wallet may still answer (opened by hand), so wait for it.
        onError: 'awaitingWallet',
      },
      on: { CANCEL: 'cancelled' },
    },
    awaitingWallet: {
      tags: ['resumable', 'awaitingWallet'],
      invoke: {
        id: 'poll',
        src: 'poll',
        input: ({ context }) => pollInput(context, 'connected'),
        // Each poll step reaches this machine (and its parent), so persistence saves the poller's
        // attempts, backoff and deadline as they change.
        onSnapshot: {},
        onDone: onPollDone('connected', 'storeConnection'),
      },
      on: { CANCEL: 'cancelled' },
    },
    connected: {
      tags: ['resumable'],
      on: {
        SIGN_MESSAGE: [
          {
            guard: 'sessionUsed',
            target: 'renewingSession',
            actions: { type: 'storeRequest', params: { method: 'signMessage', payload: null } },
          },
          {
            target: 'openingWalletToSign',
            actions: { type: 'storeRequest', params: { method: 'signMessage', payload: null } },
          },
        ],
        SIGN_TRANSACTION: [
          {
            guard: 'sessionUsed',
            target: 'renewingSession',
            actions: {
              type: 'storeRequest',
              params: ({ event }) => ({
                method: 'signTransaction' as const,
                payload: event.payload,
              }),
            },
          },
          {
            target: 'openingWalletToSign',
            actions: {
              type: 'storeRequest',
              params: ({ event }) => ({
                method: 'signTransaction' as const,
                payload: event.payload,
              }),
            },
          },
        ],
        DISCONNECT: 'disconnected',
      },
    },
    renewingSession: {
      description:
        'The backend burns a session nonce with its signature: a further signature needs a new session, which the wallet connects first.',
      invoke: {
        id: 'createSession',
        src: 'createSession',
        input: ({ context }) => ({ chainId: context.chainId, walletId: context.walletId }),
        onDone: {
          target: 'openingWalletToReconnect',
          actions: { type: 'storeSession', params: ({ event }) => event.output },
        },
        onError: {
          target: 'failed',
          actions: {
            type: 'storeError',
            params: ({ event }: { event: { error: unknown } }) => event.error,
          },
        },
      },
      on: { CANCEL: 'cancelled', DISCONNECT: 'disconnected' },
    },
    openingWalletToReconnect: {
      invoke: {
        id: 'openWallet',
        src: 'openWallet',
        input: ({ context }) => openWalletInput(context, 'connect'),
        onDone: 'reconnecting',
        onError: 'reconnecting',
      },
      on: { CANCEL: 'cancelled', DISCONNECT: 'disconnected' },
    },
    reconnecting: {
      tags: ['resumable', 'awaitingWallet'],
      invoke: {
        id: 'poll',
        src: 'poll',
        input: ({ context }) => pollInput(context, 'connected'),
        onSnapshot: {},
        onDone: onPollDone('openingWalletToSign', 'storeConnection'),
      },
      on: { CANCEL: 'cancelled', DISCONNECT: 'disconnected' },
    },
    openingWalletToSign: {
      invoke: {
        id: 'openWallet',
        src: 'openWallet',
        input: ({ context }) => openWalletInput(context, context.request?.method ?? 'signMessage'),
        onDone: 'awaitingSignature',
        onError: 'awaitingSignature',
      },
      on: { CANCEL: 'cancelled', DISCONNECT: 'disconnected' },
    },
    awaitingSignature: {
      tags: ['resumable', 'awaitingWallet'],
      invoke: {
        id: 'poll',
        src: 'poll',
        input: ({ context }) =>
          pollInput(
            context,
            context.request?.method === 'signTransaction' ? 'transaction' : 'signed',
          ),
        onSnapshot: {},
        onDone: onPollDone('connected', 'storeSignature'),
      },
      on: { CANCEL: 'cancelled', DISCONNECT: 'disconnected' },
    },
    disconnected: { type: 'final', output: ended('disconnected') },
    rejected: { type: 'final', output: ended('rejected') },
    failed: { type: 'final', output: ended('failed') },
    expired: { type: 'final', output: ended('expired') },
    cancelled: { type: 'final', output: ended('cancelled') },
  },
  output: finalStateOutput<UniversalLinkOutput>(),
})

/** What the wallet is opened with: the session (never its token), the chain, what it is asked. */
function openWalletInput(
  context: UniversalLinkContext,
  method: OpenWalletInput['method'],
): OpenWalletInput {
  return {
    walletId: context.walletId,
    method,
    session: context.session as UniversalLinkSession,
    chainId: context.chainId,
    payload: method === 'connect' ? null : (context.request?.payload ?? null),
  }
}

/**
 * The poller's input: the session without its token; the deadline is the session's expiry (an
 * absolute time, so it survives a reload). The poller reads no clock: its first lookup reports one.
 */
function pollInput(context: UniversalLinkContext, target: 'connected' | 'signed' | 'transaction') {
  const session = context.session as UniversalLinkSession
  return {
    session: { sessionId: session.sessionId, nonce: session.nonce, expiresAt: session.expiresAt },
    target,
    startedAt: 0,
    timeoutMs: Number.MAX_SAFE_INTEGER,
    ...(context.pollIntervalMs === null ? {} : { pollIntervalMs: context.pollIntervalMs }),
  }
}

/** The universal-link statechart's type (`typeof universalLinkMachine`). */
export type UniversalLinkMachine = typeof universalLinkMachine
/** An actor of the universal-link machine. */
export type UniversalLinkActor = Actor<UniversalLinkMachine>
/** A snapshot of the universal-link machine. */
export type UniversalLinkSnapshot = SnapshotFrom<UniversalLinkMachine>
