import { assign, fromPromise, setup } from 'xstate'
import type { GenericSessionResult } from '../../src/session/types'
import { toErrorData } from '../shared/error-data'
import { notProvided } from '../shared/not-provided'
import { walletErrorData } from '../shared/wallet-error-data'
import type {
  SignContext,
  SignEvent,
  SignInput,
  SignOutput,
  SignRequest,
  VerifySignatureInput,
} from './sign.types'

/** The error of a failed actor and the output of a finished one, as guard and action parameters. */
const errorOf = ({ event }: { event: { error: unknown } }) => event.error
const outputOf = <T>({ event }: { event: { output: T } }) => event.output

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
    requestSignature: fromPromise<string, SignRequest>(
      notProvided('requestSignature', 'machine.provide or createSignActor'),
    ),
    verifySignature: fromPromise<GenericSessionResult, VerifySignatureInput>(
      notProvided('verifySignature', 'machine.provide or createSignActor'),
    ),
  },
  guards: {
    canSign: ({ context, event }) =>
      (event.type === 'SIGN' && event.request !== undefined) || context.request !== null,
    shouldVerify: ({ context }) => context.verify !== null,
    isUserRejection: (_, error: unknown) => walletErrorData(error).code === 'USER_REJECTED',
    isVerified: (_, result: GenericSessionResult) => result.signed,
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
    assignSignature: assign({ signature: (_, signature: string) => signature }),
    assignWalletError: assign({ error: (_, error: unknown) => walletErrorData(error) }),
    assignVerifyError: assign({
      error: (_, error: unknown) => toErrorData(error, 'BACKEND_ERROR'),
    }),
    assignVerification: assign({
      verification: (_, result: GenericSessionResult) => ({ ...result }),
    }),
    assignNotVerified: assign({
      verification: (_, result: GenericSessionResult) => ({ ...result }),
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
          {
            guard: 'shouldVerify',
            target: 'verifying',
            actions: { type: 'assignSignature', params: outputOf },
          },
          { target: 'signed', actions: { type: 'assignSignature', params: outputOf } },
        ],
        onError: [
          {
            guard: { type: 'isUserRejection', params: errorOf },
            target: 'rejected',
            actions: { type: 'assignWalletError', params: errorOf },
          },
          { target: 'failed', actions: { type: 'assignWalletError', params: errorOf } },
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
          {
            guard: { type: 'isVerified', params: outputOf },
            target: 'signed',
            actions: { type: 'assignVerification', params: outputOf },
          },
          { target: 'failed', actions: { type: 'assignNotVerified', params: outputOf } },
        ],
        onError: { target: 'failed', actions: { type: 'assignVerifyError', params: errorOf } },
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

/** The sign statechart's type (`typeof signMachine`). */
export type SignMachine = typeof signMachine
