import { assign, fromCallback, setup } from 'xstate'
import type { ErrorData } from '../shared/error-data'
import type {
  PhantomLinkContext,
  PhantomLinkEvent,
  PhantomLinkInput,
  PhantomLinkRequest,
} from './phantom-link.types'

/** Answers remembered against replay. */
const SEEN_NONCES = 32

type AnswerEvent = Extract<PhantomLinkEvent, { type: `ANSWER.${string}` }>

const remember = (seen: readonly string[], nonce: string | null): string[] =>
  nonce === null ? [...seen] : [...seen, nonce].slice(-SEEN_NONCES)

/** The answer names the request in flight and was not taken before. */
const isFresh = (context: PhantomLinkContext, answer: AnswerEvent): boolean =>
  context.request?.flow === answer.flow &&
  (answer.nonce === null || !context.seenNonces.includes(answer.nonce))

const settled = (
  context: PhantomLinkContext,
  fields: { signature?: string | null; error?: ErrorData | null },
) => {
  const request = context.request as PhantomLinkRequest
  return {
    request: null,
    last: {
      flow: request.flow,
      method: request.method,
      signature: fields.signature ?? null,
      error: fields.error ?? null,
    },
  }
}

/**
 * Phantom's deeplink protocol v1 (Phantom, Solflare) as a chart, persisted across the navigation
 * to the wallet and back. Pure: the face builds and opens the links, opens the wallet's encrypted
 * answers and sends them as `ANSWER.*` events; the chart keeps the keys, the session and the
 * request in flight, refuses an answer for another flow or an answer already taken (a guard: the
 * flow stays as it is), and ends a request at its absolute deadline through the restartable
 * `answerDeadline` actor (XState does not restore `after` timers).
 *
 * idle → awaitingConnect → connected ⇄ awaitingSignature; a rejection, error, timeout or cancel
 * of a signature keeps the connection; the wallet saying the session is gone (`NOT_CONNECTED`),
 * or `DISCONNECT`, ends it.
 */
export const phantomLinkMachine = setup({
  types: {
    context: {} as PhantomLinkContext,
    events: {} as PhantomLinkEvent,
    input: {} as PhantomLinkInput,
    tags: {} as 'resumable' | 'busy',
  },
  actors: {
    answerDeadline: fromCallback<PhantomLinkEvent, { deadline: number }>(({ sendBack, input }) => {
      const timer = setTimeout(
        () => sendBack({ type: 'DEADLINE' }),
        Math.max(0, input.deadline - Date.now()),
      )
      return () => clearTimeout(timer)
    }),
  },
  guards: {
    /** The answer names the request in flight and was not taken before. */
    isFreshAnswer: ({ context }, params: AnswerEvent) => isFresh(context, params),
    /** A fresh answer: the wallet says the session no longer exists. */
    sessionGone: ({ context }, params: AnswerEvent) =>
      isFresh(context, params) &&
      params.type === 'ANSWER.FAILED' &&
      params.error.code === 'NOT_CONNECTED',
  },
  actions: {
    startConnect: assign(({ event }) => {
      const e = event as Extract<PhantomLinkEvent, { type: 'CONNECT' }>
      return {
        dappPublicKey: e.dappPublicKey,
        dappSecretKey: e.dappSecretKey,
        walletEncryptionKey: null,
        session: null,
        account: null,
        request: { flow: e.flow, method: 'connect' as const, deadline: e.deadline },
        last: null,
      }
    }),
    startSign: assign(({ event }) => {
      const e = event as Extract<PhantomLinkEvent, { type: 'SIGN' }>
      return { request: { flow: e.flow, method: e.method, deadline: e.deadline } }
    }),
    storeConnection: assign(({ context, event }) => {
      const e = event as Extract<PhantomLinkEvent, { type: 'ANSWER.CONNECTED' }>
      return {
        ...settled(context, {}),
        walletEncryptionKey: e.walletEncryptionKey,
        session: e.session,
        account: e.account,
        seenNonces: remember(context.seenNonces, e.nonce),
      }
    }),
    storeSignature: assign(({ context, event }) => {
      const e = event as Extract<PhantomLinkEvent, { type: 'ANSWER.SIGNED' }>
      return {
        ...settled(context, { signature: e.signature }),
        seenNonces: remember(context.seenNonces, e.nonce),
      }
    }),
    storeFailure: assign(({ context, event }) => {
      const e = event as Extract<PhantomLinkEvent, { type: 'ANSWER.FAILED' }>
      return {
        ...settled(context, { error: e.error }),
        seenNonces: remember(context.seenNonces, e.nonce),
      }
    }),
    storeTimeout: assign(({ context }) =>
      settled(context, {
        error: { code: 'TIMEOUT', message: 'The wallet did not answer in time.' },
      }),
    ),
    storeCancel: assign(({ context }) =>
      settled(context, { error: { code: 'ABORTED', message: 'Cancelled.' } }),
    ),
    forgetConnection: assign({
      dappPublicKey: null,
      dappSecretKey: null,
      walletEncryptionKey: null,
      session: null,
      account: null,
      request: null,
    }),
  },
}).createMachine({
  id: 'phantomLink',
  context: ({ input }) => ({
    walletId: input.walletId,
    chainId: input.chainId,
    dappPublicKey: null,
    dappSecretKey: null,
    walletEncryptionKey: null,
    session: null,
    account: null,
    request: null,
    seenNonces: [],
    last: null,
  }),
  initial: 'idle',
  states: {
    idle: {
      description: 'No session with the wallet (or it ended).',
      on: { CONNECT: { target: 'awaitingConnect', actions: 'startConnect' } },
    },
    awaitingConnect: {
      description:
        'The connect link is open; the page may be gone until the wallet sends the user back.',
      tags: ['resumable', 'busy'],
      invoke: {
        id: 'deadline',
        src: 'answerDeadline',
        input: ({ context }) => ({ deadline: context.request?.deadline ?? 0 }),
      },
      on: {
        'ANSWER.CONNECTED': {
          guard: { type: 'isFreshAnswer', params: ({ event }) => event },
          target: 'connected',
          actions: 'storeConnection',
        },
        'ANSWER.FAILED': {
          guard: { type: 'isFreshAnswer', params: ({ event }) => event },
          target: 'idle',
          actions: ['storeFailure', 'forgetConnection'],
        },
        DEADLINE: { target: 'idle', actions: ['storeTimeout', 'forgetConnection'] },
        CANCEL: { target: 'idle', actions: ['storeCancel', 'forgetConnection'] },
        CONNECT: { target: 'awaitingConnect', reenter: true, actions: 'startConnect' },
      },
    },
    connected: {
      description: 'The wallet’s session and x25519 key are kept for the next requests.',
      tags: ['resumable'],
      on: {
        SIGN: { target: 'awaitingSignature', actions: 'startSign' },
        DISCONNECT: { target: 'idle', actions: 'forgetConnection' },
      },
    },
    awaitingSignature: {
      description: 'A signMessage or signAndSendTransaction link is open; its answer is awaited.',
      tags: ['resumable', 'busy'],
      invoke: {
        id: 'deadline',
        src: 'answerDeadline',
        input: ({ context }) => ({ deadline: context.request?.deadline ?? 0 }),
      },
      on: {
        'ANSWER.SIGNED': {
          guard: { type: 'isFreshAnswer', params: ({ event }) => event },
          target: 'connected',
          actions: 'storeSignature',
        },
        'ANSWER.FAILED': [
          {
            guard: { type: 'sessionGone', params: ({ event }) => event },
            target: 'idle',
            actions: ['storeFailure', 'forgetConnection'],
          },
          {
            guard: { type: 'isFreshAnswer', params: ({ event }) => event },
            target: 'connected',
            actions: 'storeFailure',
          },
        ],
        DEADLINE: { target: 'connected', actions: 'storeTimeout' },
        CANCEL: { target: 'connected', actions: 'storeCancel' },
        DISCONNECT: { target: 'idle', actions: 'forgetConnection' },
      },
    },
  },
})

/** The chart's type. */
export type PhantomLinkMachine = typeof phantomLinkMachine
