import { assign, type DoneActorEvent, type ErrorActorEvent, fromPromise, setup } from 'xstate'
import type { GenericSessionResult } from '../../src/session/types'
import { toErrorData, walletErrorData } from '../shared/error-data'
import type {
  SignContext,
  SignEvent,
  SignInput,
  SignOutput,
  SignRequest,
  VerifySignatureInput,
} from './sign.types'

const notProvided = (name: string) => () => {
  throw new Error(`The actor "${name}" was not provided (use machine.provide or createSignActor).`)
}

type AnyEvent = SignEvent | { type: string }
const outputOf = <T>(event: AnyEvent) => (event as unknown as DoneActorEvent<T>).output
const errorOf = (event: AnyEvent) => (event as ErrorActorEvent).error

/**
 * The signing chart. Pure: `requestSignature` (the wallet request) and `verifySignature` (backend
 * verification) are provided (see `createSignActors`).
 *
 * idle → requesting → verifying (only when `verify` is given) → signed | rejected | failed.
 */
export const signMachine = setup({
  types: {} as {
    context: SignContext
    events: SignEvent
    input: SignInput
    output: SignOutput
  },
  actors: {
    requestSignature: fromPromise<string, SignRequest>(notProvided('requestSignature')),
    verifySignature: fromPromise<GenericSessionResult, VerifySignatureInput>(
      notProvided('verifySignature'),
    ),
  },
  guards: {
    canSign: ({ context, event }) =>
      (event.type === 'SIGN' && event.request !== undefined) || context.request !== null,
    shouldVerify: ({ context }) => context.verify !== null,
    isUserRejection: ({ event }) => walletErrorData(errorOf(event)).code === 'USER_REJECTED',
    isVerified: ({ event }) => outputOf<GenericSessionResult>(event).signed,
  },
  actions: {
    assignRequest: assign(({ context, event }) =>
      event.type === 'SIGN'
        ? {
            request: event.request ?? context.request,
            verify: event.verify === undefined ? context.verify : event.verify,
          }
        : {},
    ),
    clearOutcome: assign({ signature: null, verification: null, error: null }),
    assignSignature: assign({ signature: ({ event }) => outputOf<string>(event) }),
    assignWalletError: assign({ error: ({ event }) => walletErrorData(errorOf(event)) }),
    assignVerifyError: assign({
      error: ({ event }) => toErrorData(errorOf(event), 'BACKEND_ERROR'),
    }),
    assignVerification: assign({
      verification: ({ event }) => ({ ...outputOf<GenericSessionResult>(event) }),
    }),
    assignNotVerified: assign({
      verification: ({ event }) => ({ ...outputOf<GenericSessionResult>(event) }),
      error: {
        code: 'BACKEND_ERROR' as const,
        message: 'The backend did not record the signature as verified.',
      },
    }),
  },
}).createMachine({
  id: 'sign',
  context: ({ input }) => ({
    request: input.request ?? null,
    verify: input.verify ?? null,
    signature: null,
    verification: null,
    error: null,
  }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        SIGN: {
          guard: 'canSign',
          target: 'requesting',
          actions: ['assignRequest', 'clearOutcome'],
        },
      },
    },
    requesting: {
      description: 'The wallet is asked to sign (e.g. personal_sign of the session envelope).',
      invoke: {
        id: 'requestSignature',
        src: 'requestSignature',
        input: ({ context }) => context.request ?? { method: '', params: [] },
        onDone: [
          { guard: 'shouldVerify', target: 'verifying', actions: 'assignSignature' },
          { target: 'signed', actions: 'assignSignature' },
        ],
        onError: [
          { guard: 'isUserRejection', target: 'rejected', actions: 'assignWalletError' },
          { target: 'failed', actions: 'assignWalletError' },
        ],
      },
      on: { RESET: 'idle' },
    },
    verifying: {
      description: 'The backend verifies the signature and records the session as signed.',
      invoke: {
        id: 'verifySignature',
        src: 'verifySignature',
        input: ({ context }) => ({
          sessionId: context.verify?.sessionId ?? '',
          walletAddress: context.verify?.walletAddress ?? '',
          timestamp: context.verify?.timestamp ?? 0,
          signature: context.signature ?? '',
        }),
        onDone: [
          { guard: 'isVerified', target: 'signed', actions: 'assignVerification' },
          { target: 'failed', actions: 'assignNotVerified' },
        ],
        onError: { target: 'failed', actions: 'assignVerifyError' },
      },
    },
    signed: { type: 'final' },
    rejected: {
      description: 'The user rejected the request in the wallet (USER_REJECTED).',
      on: {
        RETRY: { target: 'requesting', actions: 'clearOutcome' },
        RESET: { target: 'idle', actions: 'clearOutcome' },
      },
    },
    failed: {
      on: {
        RETRY: { target: 'requesting', actions: 'clearOutcome' },
        RESET: { target: 'idle', actions: 'clearOutcome' },
      },
    },
  },
  output: ({ context }) => ({
    signature: context.signature ?? '',
    verification: context.verification,
  }),
})

export type SignMachine = typeof signMachine
