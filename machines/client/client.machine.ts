import { assign, fromPromise, raise, sendTo, setup, spawnChild } from 'xstate'
import type { TokenBalance, TokenBalanceQuery } from '../../src/balance'
import type { ConnectConfig } from '../../src/config'
import type { AppErrorCode } from '../../src/errors/app-error'
import type { ConnectMachine } from '../connect/connect.machine'
import { type ErrorData, toErrorData } from '../shared/error-data'
import type { SignMachine } from '../sign/sign.machine'
import type { UniversalLinkMachine } from '../universal-link/universal-link.machine'
import type { UniversalLinkOutput } from '../universal-link/universal-link.types'
import {
  type ClientContext,
  type ClientEvent,
  type ClientInput,
  type ClientTag,
  DEFAULT_CLIENT_TIMEOUTS,
  type FlowKind,
  type LoadConnectorInput,
  type LoadedConnector,
} from './client.types'

const notProvided = (name: string) => async (): Promise<never> => {
  throw new Error(`clientMachine: provide the "${name}" actor`)
}

/** Placeholder for the universal-link machine, which the facade loads with its connector. */
const universalLinkPlaceholder = fromPromise(
  notProvided('universalLink'),
) as unknown as UniversalLinkMachine

/** Placeholders for the `connect` and `sign` machines, which the facade loads with a desktop connector. */
const connectionPlaceholder = fromPromise(notProvided('connection')) as unknown as ConnectMachine
const signPlaceholder = fromPromise(notProvided('sign')) as unknown as SignMachine

const err = (code: AppErrorCode, message: string): ErrorData => ({ code, message })

/** The error a universal-link flow that ended reports (a `disconnected` end is no error). */
const linkEndError = (output: UniversalLinkOutput | undefined): ErrorData | null => {
  if (output?.status === 'disconnected') return null
  if (output?.error) return output.error
  const code = output?.status === 'cancelled' ? 'ABORTED' : 'SESSION_FAILED'
  return err(code, `The wallet flow ended: ${output?.status ?? 'failed'}.`)
}

/**
 * The `Client`'s root statechart: one actor system for the whole library. Selecting a wallet runs
 * `loadConnector`; a desktop connector is driven by the `connect` machine (invoked as `connection`
 * for as long as the connector is selected) and each signature by an invoked `sign` machine; a
 * mobile wallet by the invoked `universalLink` machine, which invokes the `sessionPolling` machine.
 * Config and balance reads are spawned `readConfig` / `readBalance` actors. Every flow a public
 * method starts (`flow`, `pending`) ends in one `outcome`: success, the wallet's error, `TIMEOUT`
 * after its named delay, or `ABORTED` on `CANCEL` or when another flow replaces it.
 */
export const clientMachine = setup({
  types: {
    context: {} as ClientContext,
    events: {} as ClientEvent,
    input: {} as ClientInput,
    tags: {} as ClientTag,
  },
  actors: {
    /** Loads (dynamic import) and builds the connector of a wallet; the facade keeps the object. */
    loadConnector: fromPromise<LoadedConnector, LoadConnectorInput>(notProvided('loadConnector')),
    /** The `connect` machine bound to the selected connector. */
    connection: connectionPlaceholder,
    /** The `sign` machine bound to the selected connector. */
    sign: signPlaceholder,
    /** The `universalLink` machine bound to the session client, vault and link opener. */
    universalLink: universalLinkPlaceholder,
    /** GET the project config. */
    readConfig: fromPromise<ConnectConfig>(notProvided('readConfig')),
    /** GET a token balance. */
    readBalance: fromPromise<TokenBalance, TokenBalanceQuery>(notProvided('readBalance')),
  },
  delays: {
    connectorLoadMs: ({ context }) => context.timeouts.connectorLoadMs,
    walletAnswerMs: ({ context }) => context.timeouts.walletAnswerMs,
    signatureMs: ({ context }) => context.timeouts.signatureMs,
  },
  guards: {
    /** The pending flow is `kind`. */
    isPending: ({ context }, kind: FlowKind) => context.pending === kind,
    /** The loaded connector is the universal-link flow. */
    isUniversalLink: (_, connector: LoadedConnector) => connector.kind === 'universalLink',
    /** The child that raised this `*.CHANGED` event is in one of `states`. */
    childIn: ({ event }, states: readonly string[]) =>
      'status' in event && states.includes(event.status),
    /** The `sign` child stopped at a rejection or a failure (its state value). */
    signFailed: (_, value: string) => value === 'rejected' || value === 'failed',
  },
  actions: {
    /** Starts a flow: a settled outcome for the one it replaces (`ABORTED`), a new flow number. */
    startFlow: assign(({ context }, kind: FlowKind) => ({
      flow: context.flow + 1,
      pending: kind,
      error: null,
      outcome:
        context.pending === null
          ? context.outcome
          : {
              flow: context.flow,
              kind: context.pending,
              error: err('ABORTED', `The ${context.pending} flow was replaced by a ${kind} flow.`),
              signature: null,
            },
    })),
    /** Settles the pending flow (no-op when none is pending). */
    settle: assign(({ context }, p: { error: ErrorData | null; signature?: string | null }) =>
      context.pending === null
        ? { error: p.error ?? context.error }
        : {
            pending: null,
            error: p.error,
            outcome: {
              flow: context.flow,
              kind: context.pending,
              error: p.error,
              signature: p.signature ?? null,
            },
          },
    ),
    storeSelection: assign(({ event }) =>
      event.type === 'SELECT_WALLET'
        ? {
            walletId: event.walletId,
            namespace: event.namespace,
            connector: null,
            connection: null,
            walletUrl: null,
          }
        : {},
    ),
    storeConnector: assign({ connector: (_, connector: LoadedConnector) => ({ ...connector }) }),
    storeConnection: assign({
      connection: ({ context, event }) =>
        event.type === 'CONNECTION.CHANGED'
          ? event.connection
          : event.type === 'LINK.CHANGED' && context.connector
            ? {
                walletId: context.connector.walletId,
                connectorId: context.connector.connectorId,
                namespace: context.connector.chainId?.startsWith('solana:') ? 'solana' : 'eip155',
                chainId: context.connector.chainId ?? '',
                accounts: event.walletAddress ? [event.walletAddress] : [],
              }
            : context.connection,
    }),
    /** Raises the `connection` child's state as a `CONNECTION.CHANGED` event. */
    forwardConnection: raise(
      (_, change: Omit<Extract<ClientEvent, { type: 'CONNECTION.CHANGED' }>, 'type'>) => ({
        type: 'CONNECTION.CHANGED' as const,
        ...change,
      }),
    ),
    /** Raises the `universalLink` child's state as a `LINK.CHANGED` event. */
    forwardLink: raise(
      (_, change: Omit<Extract<ClientEvent, { type: 'LINK.CHANGED' }>, 'type'>) => ({
        type: 'LINK.CHANGED' as const,
        ...change,
      }),
    ),
    clearConnection: assign({ connection: null }),
    storeSignRequest: assign({
      sign: ({ event }) =>
        event.type === 'SIGN' ? { request: event.request, link: event.link } : null,
    }),
    storeWalletUrl: assign({
      walletUrl: ({ event, context }) =>
        event.type === 'WALLET_OPENED' ? event.url : context.walletUrl,
    }),
    /** `RESET` then `CONNECT`: the connect child starts over from any state. */
    askConnect: sendTo('connection', { type: 'RESET' }),
    askConnectAgain: sendTo('connection', { type: 'CONNECT' }),
    resetConnection: sendTo('connection', { type: 'RESET' }),
    askDisconnect: sendTo('connection', { type: 'DISCONNECT' }),
    askSignature: sendTo('sign', { type: 'SIGN' }),
    askLinkSignature: sendTo('universalLink', ({ context }) =>
      context.sign?.link.method === 'signTransaction'
        ? { type: 'SIGN_TRANSACTION' as const, payload: context.sign.link.payload ?? '' }
        : { type: 'SIGN_MESSAGE' as const },
    ),
    askLinkDisconnect: sendTo('universalLink', { type: 'DISCONNECT' }),
    spawnRead: spawnChild('readConfig', {
      id: ({ event }) => (event.type === 'READ_CONFIG' ? event.id : 'readConfig'),
    }),
    spawnBalanceRead: spawnChild('readBalance', {
      id: ({ event }) => (event.type === 'READ_BALANCE' ? event.id : 'readBalance'),
      input: ({ event }) =>
        event.type === 'READ_BALANCE'
          ? event.query
          : { chainId: '', tokenAddress: '', account: '' },
    }),
  },
}).createMachine({
  id: 'client',
  context: ({ input }) => ({
    timeouts: { ...DEFAULT_CLIENT_TIMEOUTS, ...input.timeouts },
    walletId: null,
    namespace: null,
    connector: null,
    connection: null,
    error: null,
    flow: 0,
    pending: null,
    outcome: null,
    sign: null,
    walletUrl: null,
  }),
  initial: 'idle',
  on: {
    SELECT_WALLET: [
      {
        guard: ({ event }) => event.connect,
        target: '.selecting',
        reenter: true,
        actions: [{ type: 'startFlow', params: 'connect' }, 'storeSelection'],
      },
      {
        target: '.selecting',
        reenter: true,
        actions: [{ type: 'startFlow', params: 'select' }, 'storeSelection'],
      },
    ],
    READ_CONFIG: { actions: 'spawnRead' },
    READ_BALANCE: { actions: 'spawnBalanceRead' },
    WALLET_OPENED: { actions: 'storeWalletUrl' },
  },
  states: {
    idle: {
      description: 'No connector selected.',
    },
    selecting: {
      description: 'Loading the connector of the chosen wallet.',
      tags: ['busy', 'cancellable'],
      invoke: {
        id: 'loadConnector',
        src: 'loadConnector',
        input: ({ context }) => ({
          walletId: context.walletId,
          namespace: context.namespace,
          discoveryMs: context.timeouts.discoveryMs,
        }),
        onDone: [
          {
            guard: { type: 'isUniversalLink', params: ({ event }) => event.output },
            target: 'link',
            actions: { type: 'storeConnector', params: ({ event }) => event.output },
          },
          {
            target: 'wallet',
            actions: { type: 'storeConnector', params: ({ event }) => event.output },
          },
        ],
        onError: {
          target: 'idle',
          actions: {
            type: 'settle',
            params: ({ event }) => ({ error: toErrorData(event.error, 'WALLET_UNAVAILABLE') }),
          },
        },
      },
      after: {
        connectorLoadMs: {
          target: 'idle',
          actions: {
            type: 'settle',
            params: { error: err('TIMEOUT', 'Loading the wallet connector took too long.') },
          },
        },
      },
      on: {
        CANCEL: {
          target: 'idle',
          actions: { type: 'settle', params: { error: err('ABORTED', 'Cancelled.') } },
        },
      },
    },
    wallet: {
      description: 'A desktop (or custom) connector, driven by the connect machine.',
      tags: ['selected'],
      invoke: {
        id: 'connection',
        src: 'connection',
        input: ({ context }) => ({ connectorId: context.connector?.connectorId ?? '' }),
        onSnapshot: {
          actions: {
            type: 'forwardConnection',
            params: ({ event }) => ({
              status: String(event.snapshot.value),
              connection: event.snapshot.context.connection,
              error: event.snapshot.context.error,
            }),
          },
        },
      },
      initial: 'checking',
      states: {
        checking: {
          always: [
            { guard: { type: 'isPending', params: 'connect' }, target: 'connecting' },
            { target: 'disconnected', actions: { type: 'settle', params: { error: null } } },
          ],
        },
        disconnected: {
          on: {
            CONNECT: { target: 'connecting', actions: { type: 'startFlow', params: 'connect' } },
          },
        },
        connecting: {
          tags: ['busy', 'cancellable'],
          entry: ['askConnect', 'askConnectAgain'],
          on: {
            'CONNECTION.CHANGED': [
              {
                guard: { type: 'childIn', params: ['connected'] },
                target: 'connected',
                actions: ['storeConnection', { type: 'settle', params: { error: null } }],
              },
              {
                guard: { type: 'childIn', params: ['rejected', 'failed'] },
                target: 'disconnected',
                actions: {
                  type: 'settle',
                  params: ({ event }) => ({
                    error:
                      (event.type === 'CONNECTION.CHANGED' ? event.error : null) ??
                      err('WALLET_ERROR', 'The wallet did not connect.'),
                  }),
                },
              },
            ],
            CANCEL: {
              target: 'disconnected',
              actions: [
                'resetConnection',
                { type: 'settle', params: { error: err('ABORTED', 'Cancelled.') } },
              ],
            },
            DISCONNECT: {
              target: 'disconnected',
              actions: [
                'resetConnection',
                { type: 'settle', params: { error: err('ABORTED', 'Disconnected.') } },
              ],
            },
          },
          after: {
            walletAnswerMs: {
              target: 'disconnected',
              actions: [
                'resetConnection',
                {
                  type: 'settle',
                  params: { error: err('TIMEOUT', 'The wallet did not answer in time.') },
                },
              ],
            },
          },
        },
        connected: {
          tags: ['connected'],
          on: {
            // Account and chain changes are kept; any other state of the child means it is gone.
            'CONNECTION.CHANGED': [
              { guard: { type: 'childIn', params: ['connected'] }, actions: 'storeConnection' },
              { target: 'disconnected', actions: 'clearConnection' },
            ],
            SIGN: {
              target: 'signing',
              actions: [{ type: 'startFlow', params: 'sign' }, 'storeSignRequest'],
            },
            DISCONNECT: {
              target: 'disconnecting',
              actions: { type: 'startFlow', params: 'disconnect' },
            },
          },
        },
        signing: {
          tags: ['connected', 'busy', 'cancellable'],
          invoke: {
            id: 'sign',
            src: 'sign',
            input: ({ context }) => (context.sign ? { request: context.sign.request } : {}),
            onSnapshot: {
              guard: { type: 'signFailed', params: ({ event }) => String(event.snapshot.value) },
              target: 'connected',
              actions: {
                type: 'settle',
                params: ({ event }) => ({
                  error:
                    event.snapshot.context.error ?? err('WALLET_ERROR', 'The wallet did not sign.'),
                }),
              },
            },
            onDone: {
              target: 'connected',
              actions: {
                type: 'settle',
                params: ({ event }) => ({ error: null, signature: event.output.signature }),
              },
            },
          },
          initial: 'requesting',
          states: { requesting: { entry: 'askSignature' } },
          on: {
            'CONNECTION.CHANGED': [
              { guard: { type: 'childIn', params: ['connected'] }, actions: 'storeConnection' },
              {
                target: 'disconnected',
                actions: [
                  'clearConnection',
                  {
                    type: 'settle',
                    params: { error: err('NOT_CONNECTED', 'The wallet disconnected.') },
                  },
                ],
              },
            ],
            CANCEL: {
              target: 'connected',
              actions: { type: 'settle', params: { error: err('ABORTED', 'Cancelled.') } },
            },
            DISCONNECT: {
              target: 'disconnecting',
              actions: { type: 'startFlow', params: 'disconnect' },
            },
          },
          after: {
            signatureMs: {
              target: 'connected',
              actions: {
                type: 'settle',
                params: { error: err('TIMEOUT', 'The wallet did not sign in time.') },
              },
            },
          },
        },
        disconnecting: {
          tags: ['busy'],
          entry: 'askDisconnect',
          on: {
            'CONNECTION.CHANGED': {
              guard: { type: 'childIn', params: ['idle'] },
              target: 'disconnected',
              actions: ['clearConnection', { type: 'settle', params: { error: null } }],
            },
          },
          after: {
            walletAnswerMs: {
              target: 'disconnected',
              actions: [
                'clearConnection',
                'resetConnection',
                { type: 'settle', params: { error: null } },
              ],
            },
          },
        },
      },
    },
    link: {
      description: 'A mobile wallet over a universal link, driven by the universalLink machine.',
      tags: ['selected'],
      initial: 'checking',
      states: {
        checking: {
          always: [
            { guard: { type: 'isPending', params: 'connect' }, target: 'flow' },
            { target: 'disconnected', actions: { type: 'settle', params: { error: null } } },
          ],
        },
        disconnected: {
          on: {
            CONNECT: { target: 'flow', actions: { type: 'startFlow', params: 'connect' } },
          },
        },
        flow: {
          invoke: {
            id: 'universalLink',
            src: 'universalLink',
            input: ({ context }) => ({
              walletId: context.connector?.walletId ?? '',
              chainId: context.connector?.chainId ?? '',
              ...(context.connector?.pollIntervalMs == null
                ? {}
                : { pollIntervalMs: context.connector.pollIntervalMs }),
            }),
            onSnapshot: {
              actions: {
                type: 'forwardLink',
                params: ({ event }) => ({
                  status: String(event.snapshot.value),
                  walletAddress: event.snapshot.context.walletAddress,
                  signature: event.snapshot.context.txSignature ?? event.snapshot.context.signature,
                }),
              },
            },
            onDone: {
              target: 'disconnected',
              actions: [
                'clearConnection',
                { type: 'settle', params: ({ event }) => ({ error: linkEndError(event.output) }) },
              ],
            },
            onError: {
              target: 'disconnected',
              actions: [
                'clearConnection',
                {
                  type: 'settle',
                  params: ({ event }) => ({ error: toErrorData(event.error, 'SESSION_FAILED') }),
                },
              ],
            },
          },
          initial: 'connecting',
          states: {
            connecting: {
              tags: ['busy', 'cancellable', 'resumable'],
              on: {
                'LINK.CHANGED': {
                  guard: { type: 'childIn', params: ['connected'] },
                  target: 'connected',
                  actions: ['storeConnection', { type: 'settle', params: { error: null } }],
                },
              },
              after: {
                walletAnswerMs: {
                  target: '#client.link.disconnected',
                  actions: {
                    type: 'settle',
                    params: { error: err('TIMEOUT', 'The wallet did not answer in time.') },
                  },
                },
              },
            },
            connected: {
              tags: ['connected', 'resumable'],
              on: {
                SIGN: {
                  target: 'signing',
                  actions: [
                    { type: 'startFlow', params: 'sign' },
                    'storeSignRequest',
                    'askLinkSignature',
                  ],
                },
                DISCONNECT: {
                  target: '#client.link.disconnected',
                  actions: [
                    'clearConnection',
                    { type: 'startFlow', params: 'disconnect' },
                    { type: 'settle', params: { error: null } },
                  ],
                },
              },
            },
            signing: {
              tags: ['connected', 'busy', 'cancellable', 'resumable'],
              on: {
                'LINK.CHANGED': {
                  guard: { type: 'childIn', params: ['connected'] },
                  target: 'connected',
                  actions: {
                    type: 'settle',
                    params: ({ event }) => ({
                      error: null,
                      signature: event.type === 'LINK.CHANGED' ? event.signature : null,
                    }),
                  },
                },
              },
              after: {
                signatureMs: {
                  target: '#client.link.disconnected',
                  actions: [
                    'clearConnection',
                    {
                      type: 'settle',
                      params: { error: err('TIMEOUT', 'The wallet did not sign in time.') },
                    },
                  ],
                },
              },
            },
          },
          on: {
            CANCEL: {
              target: 'disconnected',
              actions: [
                'clearConnection',
                { type: 'settle', params: { error: err('ABORTED', 'Cancelled.') } },
              ],
            },
            DISCONNECT: {
              target: 'disconnected',
              actions: [
                'clearConnection',
                { type: 'settle', params: { error: err('ABORTED', 'Disconnected.') } },
              ],
            },
          },
        },
      },
    },
  },
})

export type ClientMachine = typeof clientMachine
