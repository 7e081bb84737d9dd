import { assign, type ErrorActorEvent, emit, fromPromise, setup } from 'xstate'
import type { AppErrorCode } from '../../src/errors/app-error'
import { toErrorData } from '../shared/error-data'
import type {
  AwaitWalletInput,
  AwaitWalletOutput,
  OpenWalletEmitted,
  UniversalLinkContext,
  UniversalLinkEvent,
  UniversalLinkFinalStatus,
  UniversalLinkInput,
  UniversalLinkOutput,
  UniversalLinkSession,
} from './universal-link.types'
import { RESUMABLE_TAG } from './universal-link.types'

/** Bump when a change makes older persisted snapshots unsafe to restore. */
export const UNIVERSAL_LINK_MACHINE_VERSION = 1

/** The error of a failed actor, as the `storeError` action's parameter. */
const errorOf = ({ event }: { event: ErrorActorEvent }) => event.error

/** A failed wallet wait whose error has `code` ends in `target`, keeping the error. */
const endOnCode = <Target extends string>(code: AppErrorCode, target: Target) =>
  ({
    guard: {
      type: 'failedWith',
      params: ({ event }: { event: ErrorActorEvent }) => ({ error: event.error, code }),
    },
    target,
    actions: { type: 'storeError', params: errorOf },
  }) as const

// Shared by `awaitingWallet` and `awaitingSignature`: the error's code picks the final state.
const ON_WALLET_ERROR = [
  endOnCode('USER_REJECTED', 'rejected'),
  endOnCode('SESSION_EXPIRED', 'expired'),
  {
    guard: {
      type: 'failedWith',
      params: ({ event }: { event: ErrorActorEvent }) => ({
        error: event.error,
        code: 'ABORTED' as const,
      }),
    },
    target: 'cancelled',
  },
  { target: 'failed', actions: { type: 'storeError', params: errorOf } },
] as const

/**
 * The mobile flow over a universal link: create a backend session, open the wallet app, wait for the
 * wallet's callback (polling the session), then optionally one signature. States tagged `resumable`
 * hold only idempotent work (polling), so their persisted snapshot can be restored after the page
 * reload that follows the trip to the wallet. The wallet is opened through an emitted event, which
 * is never replayed on restore, so resuming does not reopen the wallet.
 */
export const universalLinkMachine = setup({
  types: {
    context: {} as UniversalLinkContext,
    events: {} as UniversalLinkEvent,
    input: {} as UniversalLinkInput,
    output: {} as UniversalLinkOutput,
    emitted: {} as OpenWalletEmitted,
  },
  actors: {
    /** Creates the backend session (POST /sessions). */
    createSession: fromPromise<UniversalLinkSession, { chainId: string; walletId: string }>(
      async () => {
        throw new Error('universalLinkMachine: provide the createSession actor')
      },
    ),
    /** Polls the session until the wallet reports; rejects with `{ code }` on reject/fail/expiry. */
    awaitWallet: fromPromise<AwaitWalletOutput, AwaitWalletInput>(async () => {
      throw new Error('universalLinkMachine: provide the awaitWallet actor')
    }),
  },
  actions: {
    storeSession: assign({ session: (_, session: UniversalLinkSession) => session }),
    storeConnection: assign({
      walletAddress: (_, output: AwaitWalletOutput) => output.walletAddress,
    }),
    storeSignature: assign({
      signature: (_, output: AwaitWalletOutput) => output.signature,
      txSignature: (_, output: AwaitWalletOutput) => output.txSignature,
    }),
    storeRequest: assign({
      request: (_, request: NonNullable<UniversalLinkContext['request']>) => request,
    }),
    storeError: assign({ error: (_, error: unknown) => toErrorData(error, 'SESSION_FAILED') }),
    markOutcome: assign({
      outcome: (_, params: { status: UniversalLinkFinalStatus }) => params.status,
    }),
    openWalletToConnect: emit(({ context }) => ({
      type: 'openWallet' as const,
      method: 'connect' as const,
      session: context.session as UniversalLinkSession,
      chainId: context.chainId,
      payload: null,
    })),
    openWalletToSign: emit(({ context }) => ({
      type: 'openWallet' as const,
      method: context.request?.method ?? 'signMessage',
      session: context.session as UniversalLinkSession,
      chainId: context.chainId,
      payload: context.request?.payload ?? null,
    })),
  },
  guards: {
    /** The actor failed with this `AppError` code. */
    failedWith: (_, params: { error: unknown; code: AppErrorCode }) =>
      toErrorData(params.error, 'SESSION_FAILED').code === params.code,
  },
}).createMachine({
  id: 'universalLink',
  initial: 'creatingSession',
  context: ({ input }) => ({
    walletId: input.walletId,
    chainId: input.chainId,
    session: null,
    walletAddress: null,
    request: null,
    signature: null,
    txSignature: null,
    error: null,
    outcome: null,
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
          actions: { type: 'storeError', params: errorOf },
        },
      },
    },
    openingWallet: {
      entry: 'openWalletToConnect',
      always: 'awaitingWallet',
    },
    awaitingWallet: {
      tags: [RESUMABLE_TAG],
      invoke: {
        id: 'awaitWallet',
        src: 'awaitWallet',
        input: ({ context }) => ({
          session: context.session as UniversalLinkSession,
          until: 'connected' as const,
        }),
        onDone: {
          target: 'connected',
          actions: { type: 'storeConnection', params: ({ event }) => event.output },
        },
        onError: ON_WALLET_ERROR,
      },
      on: { CANCEL: 'cancelled' },
    },
    connected: {
      tags: [RESUMABLE_TAG],
      on: {
        SIGN_MESSAGE: {
          target: 'openingWalletToSign',
          actions: { type: 'storeRequest', params: { method: 'signMessage', payload: null } },
        },
        SIGN_TRANSACTION: {
          target: 'openingWalletToSign',
          actions: {
            type: 'storeRequest',
            params: ({ event }) => ({ method: 'signTransaction' as const, payload: event.payload }),
          },
        },
        DISCONNECT: 'disconnected',
      },
    },
    openingWalletToSign: {
      entry: 'openWalletToSign',
      always: 'awaitingSignature',
    },
    awaitingSignature: {
      tags: [RESUMABLE_TAG],
      invoke: {
        id: 'awaitWallet',
        src: 'awaitWallet',
        input: ({ context }) => ({
          session: context.session as UniversalLinkSession,
          until:
            context.request?.method === 'signTransaction'
              ? ('transaction' as const)
              : ('signed' as const),
        }),
        onDone: {
          target: 'done',
          actions: { type: 'storeSignature', params: ({ event }) => event.output },
        },
        onError: ON_WALLET_ERROR,
      },
      on: { CANCEL: 'cancelled', DISCONNECT: 'disconnected' },
    },
    done: { type: 'final', entry: { type: 'markOutcome', params: { status: 'done' } } },
    disconnected: {
      type: 'final',
      entry: { type: 'markOutcome', params: { status: 'disconnected' } },
    },
    rejected: { type: 'final', entry: { type: 'markOutcome', params: { status: 'rejected' } } },
    failed: { type: 'final', entry: { type: 'markOutcome', params: { status: 'failed' } } },
    expired: { type: 'final', entry: { type: 'markOutcome', params: { status: 'expired' } } },
    cancelled: { type: 'final', entry: { type: 'markOutcome', params: { status: 'cancelled' } } },
  },
  output: ({ context }) => ({
    status: context.outcome ?? 'failed',
    walletAddress: context.walletAddress,
    signature: context.signature,
    txSignature: context.txSignature,
    error: context.error,
  }),
})

export type UniversalLinkMachine = typeof universalLinkMachine
