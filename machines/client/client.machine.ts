import {
  type AnyStateMachine,
  assign,
  type EmittedFrom,
  type EventFromLogic,
  fromPromise,
  type InputFrom,
  raise,
  type SnapshotFrom,
  sendTo,
  setup,
  spawnChild,
  stopChild,
} from 'xstate'
import type { TokenBalance, TokenBalanceQuery, TokenBalanceResult } from '../../src/balance'
import type { ConnectConfig } from '../../src/config'
import type { AppErrorCode } from '../../src/errors/app-error'
import type { ConnectMachine } from '../connect/connect.machine'
import type { PairingMachine } from '../pairing/pairing.machine'
import { type ErrorData, toErrorData } from '../shared/error-data'
import { notProvidedLogic } from '../shared/not-provided'
import type { SignMachine } from '../sign/sign.machine'
import type { TransactionMachine } from '../transaction/transaction.machine'
import type { UniversalLinkMachine } from '../universal-link/universal-link.machine'
import {
  linkPollTrouble,
  linkTimeoutError,
  relayDownReason,
  relayTimeoutError,
} from './client.link-polls'
import {
  type ClientContext,
  type ClientEvent,
  type ClientInput,
  type ClientTag,
  type ClientTimeouts,
  DEFAULT_CLIENT_TIMEOUTS,
  type LoadConnectorInput,
  type LoadedConnector,
  type OperationKind,
} from './client.types'

/**
 * What the promise actors are until the facade provides them (`provideClient`); the child
 * machines stand in as `notProvidedLogic` of their types (they load with their connector or with
 * `pair()`).
 */
const notProvided = async (): Promise<never> => {
  throw new Error('clientMachine: provide its actors (provideClient)')
}

/** The stand-in of child machine `T`: its types, none of its code. */
const child = <T extends AnyStateMachine>(name: string) =>
  notProvidedLogic<SnapshotFrom<T>, EventFromLogic<T>, InputFrom<T>, EmittedFrom<T>>(name)

const err = (code: AppErrorCode, message: string): ErrorData => ({ code, message })

/** The settle parameters of a child that failed: its error, as plain data, else `code`. */
const failedWith =
  (code: AppErrorCode) =>
  ({ event }: { event: { error: unknown } }) => ({ error: toErrorData(event.error, code) })

type ChildChange = Extract<
  ClientEvent,
  { type: 'CONNECTION.CHANGED' | 'LINK.CHANGED' | 'PAIRING.CHANGED' }
>

/**
 * A transaction flow given up while the wallet is asked: the wallet may still send it (an EIP-1193
 * request cannot be taken back), so its `transaction` child keeps waiting for the answer.
 */
const STILL_ASKED =
  ' The wallet was asked already and may still send it: getView().transaction follows its answer.'

type WaitDelay = keyof Pick<ClientTimeouts, 'walletAnswerMs' | 'signatureMs'>

/**
 * The `Client`'s root statechart: one actor system for the whole library. Selecting a wallet runs
 * `loadConnector`; a desktop connector is driven by the `connect` machine (invoked as `connection`
 * for as long as the connector is selected) and each signature by an invoked `sign` machine; a
 * mobile wallet by the invoked `universalLink` machine, which invokes the `sessionPolling` machine;
 * a wallet paired over the relay (`PAIR`) by the invoked `pairing` machine. Config and balance
 * reads are spawned `readConfig` / `readBalance` / `readBalances` actors. Every flow a public method starts (`flow`,
 * `pending`) ends in one `outcome`: success, the wallet's error, `TIMEOUT` after its named delay,
 * or `ABORTED` on `CANCEL` or when another flow replaces it. The wallet-answer and signature waits
 * keep their deadline as an absolute time (`deadline`): a restored root, sent `RESUMED`, waits only
 * for what is left of it. The chart is in every app's entry chunk, so its state descriptions live
 * with its diagram (visualizations/descriptions.ts), not here.
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
    loadConnector: fromPromise<LoadedConnector, LoadConnectorInput>(notProvided),
    /** The `connect` machine bound to the selected connector. */
    connection: child<ConnectMachine>('connection'),
    /** The `sign` machine bound to the selected connector. */
    sign: child<SignMachine>('sign'),
    /** The `universalLink` machine bound to the session client, vault and link opener. */
    universalLink: child<UniversalLinkMachine>('universalLink'),
    /** The `pairing` machine bound to the relay client, its peer and the pairing vault. */
    pairing: child<PairingMachine>('pairing'),
    /** The `transaction` machine bound to the current connector and the backend's status reads. */
    transaction: child<TransactionMachine>('transaction'),
    /** GET the project config. */
    readConfig: fromPromise<ConnectConfig>(notProvided),
    /** Asks the connected wallet to switch chains (adding the chain from the registry when unknown). */
    switchChain: fromPromise<{ chainId: string }, { chainId: string }>(notProvided),
    /** GET a token balance. */
    readBalance: fromPromise<TokenBalance, TokenBalanceQuery>(notProvided),
    readBalances: fromPromise<TokenBalanceResult[], readonly TokenBalanceQuery[]>(notProvided),
  },
  delays: {
    connectorLoadMs: ({ context }) => context.timeouts.connectorLoadMs,
    reconnectMs: ({ context }) => context.timeouts.reconnectMs,
    // The chart keeps no clock: `provideClient` counts these from the deadline, on its clock.
    walletAnswerMs: ({ context }) => context.timeouts.walletAnswerMs,
    signatureMs: ({ context }) => context.timeouts.signatureMs,
  },
  guards: {
    /** `SELECT_WALLET` goes on to connect. */
    wantsConnect: ({ event }) => event.type === 'SELECT_WALLET' && event.connect,
    /** No flow is pending (a transaction's wallet request is one: the wallet is asked). */
    noFlowPending: ({ context }) => context.pending === null,
    /** The connection child, still connected, reports another active account than the one kept. */
    accountChanged: ({ context, event }) =>
      ((event.type === 'CONNECTION.CHANGED' && event.status === 'connected') ||
        (event.type === 'PAIRING.CHANGED' && event.status === 'paired')) &&
      (event.connection ?? null) !== null &&
      context.connection !== null &&
      (event.connection?.accounts[0] ?? '').toLowerCase() !==
        (context.connection.accounts[0] ?? '').toLowerCase(),
    /** The pending flow is `kind`. */
    isPending: ({ context }, kind: OperationKind) => context.pending === kind,
    /** The loaded connector is the universal-link flow. */
    isUniversalLink: (_, connector: LoadedConnector) => connector.kind === 'universal-link',
    /** The child that raised this `*.CHANGED` event is in one of `states`. */
    childIn: ({ event }, states: readonly string[]) =>
      'status' in event && states.includes(event.status),
    /** A transaction may start: a wallet connected (not over a universal link), no flow pending. */
    canSendTransaction: ({ context }) =>
      context.connection !== null &&
      context.pending === null &&
      context.connector?.kind !== 'universal-link',
    /** The `transaction` child reports on the pending transaction flow (not a replaced one). */
    isTransactionFlow: ({ context, event }) =>
      context.pending === 'transaction' && 'flow' in event && event.flow === context.flow,
    /** The `sign` child stopped at a rejection or a failure (its state value). */
    signFailed: (_, value: string) => value === 'rejected' || value === 'failed',
    /** The `pairing` child settled the root's request in flight with `status`. */
    relayRequestIs: ({ context, event }, status: 'answered' | 'failed') =>
      event.type === 'PAIRING.CHANGED' &&
      event.lastRequest !== null &&
      event.lastRequest.requestId === context.relay?.request?.requestId &&
      event.lastRequest.status === status,
  },
  actions: {
    /** Starts a flow: a settled outcome for the one it replaces (`ABORTED`), a new flow number. */
    startFlow: assign(({ context }, kind: OperationKind) => ({
      flow: context.flow + 1,
      pending: kind,
      error: null,
      outcome:
        context.pending === null
          ? context.outcome
          : {
              flow: context.flow,
              kind: context.pending,
              error: err(
                'ABORTED',
                `The ${context.pending} flow was replaced by a ${kind} flow.${context.pending === 'transaction' ? STILL_ASKED : ''}`,
              ),
              signature: null,
            },
    })),
    /**
     * Settles the pending flow (no-op when none is pending). `quiet`: the error is the outcome's
     * alone, not shown in the view (a silent reconnect that did not happen is no error to the user).
     */
    settle: assign(
      ({ context }, p: { error: ErrorData | null; signature?: string | null; quiet?: boolean }) =>
        context.pending === null
          ? { error: p.error ?? context.error }
          : {
              pending: null,
              error: p.quiet ? null : p.error,
              // A settled request leaves the context (a signed message is not carried on).
              sign: null,
              outcome: {
                flow: context.flow,
                kind: context.pending,
                error: p.error,
                signature: p.signature ?? null,
              },
            },
    ),
    storeSelection: assign(({ event }) =>
      event.type === 'SELECT_WALLET' || event.type === 'RECONNECT'
        ? {
            walletId: event.walletId,
            namespace: event.namespace,
            selectedConnectorId: event.type === 'RECONNECT' ? event.connectorId : null,
            connector: null,
            connection: null,
            walletUrl: null,
            relay: null,
          }
        : {},
    ),
    storePairing: assign(({ event }) =>
      event.type === 'PAIR'
        ? {
            walletId: null,
            namespace: null,
            connector: {
              kind: 'relay' as const,
              connectorId: 'relay',
              walletId: null,
              chainId: null,
            },
            connection: null,
            walletUrl: null,
            relay: { input: event.input, uri: event.uri, request: null },
          }
        : {},
    ),
    /** Paired: the URI (it holds the pairing key) is no longer kept. */
    forgetPairingUri: assign(({ context }) =>
      context.relay ? { relay: { ...context.relay, uri: null } } : {},
    ),
    storeRelayRequest: assign(({ context, event }) =>
      event.type === 'RELAY.REQUEST' && context.relay
        ? {
            relay: {
              ...context.relay,
              request: { requestId: event.requestId, method: event.method },
            },
          }
        : {},
    ),
    clearRelayRequest: assign(({ context }) =>
      context.relay ? { relay: { ...context.relay, request: null } } : {},
    ),
    endRelay: assign({ relay: null, connector: null, connection: null }),
    askRelayRequest: sendTo('pairing', ({ context }) => ({
      type: 'REQUEST' as const,
      requestId: context.relay?.request?.requestId ?? '',
      method: context.relay?.request?.method ?? '',
    })),
    askRelayDisconnect: sendTo('pairing', { type: 'DISCONNECT' }),
    /** The wait of the current flow ends at now + `delay` (kept if it has one): `provideClient`'s, on its clock. */
    armDeadline: (_, _delay: WaitDelay) => {},
    storeConnector: assign({ connector: (_, connector: LoadedConnector) => ({ ...connector }) }),
    /** The connection a child reports (every flow reports it in the same shape). */
    storeConnection: assign({
      connection: ({ event }) => ('connection' in event ? event.connection : null),
    }),
    /** Raises a child's state as its `*.CHANGED` event, which the chart's transitions read. */
    forward: raise((_, change: ChildChange) => change),
    clearConnection: assign({ connection: null }),
    /** Whether the universal-link child's result polls are failing (for its timeout's message). */
    storeLinkPolls: assign({
      linkPolls: ({ event }) => (event.type === 'LINK.CHANGED' ? (event.polls ?? null) : null),
    }),
    clearLinkPolls: assign({ linkPolls: null }),
    /** Whether the pairing's relay connection is down (for a relay timeout's message). */
    storeRelayDown: assign({
      relayDown: ({ event }) =>
        event.type === 'PAIRING.CHANGED' ? (event.relayDown ?? null) : null,
    }),
    clearRelayDown: assign({ relayDown: null }),
    /** The pairing URI the connect child reports (WalletConnect), for the view and the QR modal. */
    storePairingUri: assign({
      walletPairingUri: ({ event }) =>
        event.type === 'CONNECTION.CHANGED' ? event.pairingUri : null,
    }),
    clearPairingUri: assign({ walletPairingUri: null }),
    storeSignRequest: assign({
      sign: ({ event }) =>
        event.type === 'SIGN' ? { request: event.request, link: event.link } : null,
    }),
    storeWalletUrl: assign({
      walletUrl: ({ event, context }) =>
        event.type === 'WALLET_OPENED' ? event.url : context.walletUrl,
    }),
    /** Brings the connect child back to `idle` from any state (before a `CONNECT`: it starts over). */
    resetConnection: sendTo('connection', { type: 'RESET' }),
    askConnect: sendTo('connection', { type: 'CONNECT' }),
    askReconnect: sendTo('connection', { type: 'RECONNECT' }),
    /** The wallet switched (its answer): the connection follows even if it sends no `chainChanged`. */
    confirmChain: sendTo('connection', (_, chainId: string) => ({
      type: 'WALLET.CHAIN_CHANGED' as const,
      chainId,
    })),
    storeProjectChains: assign({
      projectChains: ({ event }) => (event.type === 'PROJECT.CHAINS' ? [...event.chainIds] : null),
    }),
    askDisconnect: sendTo('connection', { type: 'DISCONNECT' }),
    askSignature: sendTo('sign', { type: 'SIGN' }),
    askLinkSignature: sendTo('universalLink', ({ context }) =>
      context.sign?.link.method === 'signTransaction'
        ? { type: 'SIGN_TRANSACTION' as const, payload: context.sign.link.payload ?? '' }
        : { type: 'SIGN_MESSAGE' as const },
    ),
    /** The previous transaction's watcher goes before a new one starts (one `transaction` child). */
    stopTransaction: stopChild('transaction'),
    spawnTransaction: spawnChild('transaction', {
      id: 'transaction',
      input: ({ context, event }) =>
        event.type === 'SEND_TRANSACTION' || event.type === 'WATCH_TRANSACTION'
          ? {
              ...event.input,
              flow: event.type === 'SEND_TRANSACTION' ? context.flow : null,
            }
          : { request: null },
    }),
    /** A settled read leaves nothing behind: its actor (and its output) goes. */
    endRead: stopChild(({ event }) => (event as { actorId?: string }).actorId ?? ''),
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
    spawnBalancesRead: spawnChild('readBalances', {
      id: ({ event }) => (event.type === 'READ_BALANCES' ? event.id : 'readBalances'),
      input: ({ event }) => (event.type === 'READ_BALANCES' ? event.queries : []),
    }),
  },
}).createMachine({
  id: 'client',
  context: ({ input }) => ({
    timeouts: { ...DEFAULT_CLIENT_TIMEOUTS, ...input.timeouts },
    walletId: null,
    namespace: null,
    selectedConnectorId: null,
    connector: null,
    connection: null,
    error: null,
    flow: 0,
    pending: null,
    outcome: null,
    sign: null,
    walletUrl: null,
    relay: null,
    walletPairingUri: null,
    deadline: null,
    projectChains: null,
    linkPolls: null,
    relayDown: null,
  }),
  initial: 'idle',
  on: {
    SELECT_WALLET: [
      {
        guard: 'wantsConnect',
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
    RECONNECT: {
      target: '.selecting',
      reenter: true,
      actions: [{ type: 'startFlow', params: 'reconnect' }, 'storeSelection'],
    },
    PAIR: {
      target: '.relay',
      reenter: true,
      actions: [{ type: 'startFlow', params: 'pair' }, 'storePairing'],
    },
    READ_CONFIG: { actions: 'spawnRead' },
    READ_BALANCE: { actions: 'spawnBalanceRead' },
    READ_BALANCES: { actions: 'spawnBalancesRead' },
    // A read's end, success or failure, is its caller's alone (the Client settles its promise).
    'xstate.done.actor.read.*': { actions: 'endRead' },
    'xstate.error.actor.read.*': { actions: 'endRead' },
    WALLET_OPENED: { actions: 'storeWalletUrl' },
    'PROJECT.CHAINS': { actions: 'storeProjectChains' },
    // The transaction runs beside the connection (its receipt needs no wallet): a spawned child.
    SEND_TRANSACTION: {
      guard: 'canSendTransaction',
      actions: [
        { type: 'startFlow', params: 'transaction' },
        'stopTransaction',
        'spawnTransaction',
      ],
    },
    WATCH_TRANSACTION: { actions: ['stopTransaction', 'spawnTransaction'] },
    'TRANSACTION.SUBMITTED': {
      guard: 'isTransactionFlow',
      actions: {
        type: 'settle',
        params: ({ event }) => ({ error: null, signature: event.hash }),
      },
    },
    'TRANSACTION.FAILED': {
      guard: 'isTransactionFlow',
      actions: { type: 'settle', params: ({ event }) => ({ error: event.error }) },
    },
    'xstate.error.actor.transaction': {
      guard: { type: 'isPending', params: 'transaction' },
      actions: { type: 'settle', params: failedWith('WALLET_ERROR') },
    },
    // Given up, not stopped: the child keeps waiting for the wallet, whose hash is never lost.
    CANCEL: {
      guard: { type: 'isPending', params: 'transaction' },
      actions: { type: 'settle', params: { error: err('ABORTED', `Cancelled.${STILL_ASKED}`) } },
    },
  },
  states: {
    idle: {},
    selecting: {
      tags: ['busy', 'cancellable'],
      invoke: {
        id: 'loadConnector',
        src: 'loadConnector',
        input: ({ context }) => ({
          walletId: context.walletId,
          connectorId: context.selectedConnectorId,
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
            params: failedWith('WALLET_UNAVAILABLE'),
          },
        },
      },
      after: {
        connectorLoadMs: {
          target: 'idle',
          actions: {
            type: 'settle',
            params: { error: err('TIMEOUT', 'The wallet connector did not load in time.') },
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
      tags: ['selected'],
      invoke: {
        id: 'connection',
        systemId: 'connection',
        src: 'connection',
        input: ({ context }) => ({ connectorId: context.connector?.connectorId ?? '' }),
        onError: {
          target: 'idle',
          actions: {
            type: 'settle',
            params: failedWith('WALLET_ERROR'),
          },
        },
        onSnapshot: {
          actions: {
            type: 'forward',
            params: ({ event }) => ({
              type: 'CONNECTION.CHANGED' as const,
              status: String(event.snapshot.value),
              connection: event.snapshot.context.connection,
              error: event.snapshot.context.error,
              pairingUri: event.snapshot.context.pairingUri,
            }),
          },
        },
      },
      initial: 'checking',
      states: {
        checking: {
          always: [
            { guard: { type: 'isPending', params: 'connect' }, target: 'connecting' },
            { guard: { type: 'isPending', params: 'reconnect' }, target: 'reconnecting' },
            { target: 'disconnected', actions: { type: 'settle', params: { error: null } } },
          ],
        },
        disconnected: {
          // However the wallet left (the child gone, a disconnect, a failed connect), none is kept.
          entry: 'clearConnection',
          on: {
            CONNECT: { target: 'connecting', actions: { type: 'startFlow', params: 'connect' } },
          },
        },
        connecting: {
          tags: ['busy', 'cancellable'],
          entry: [
            { type: 'armDeadline', params: 'walletAnswerMs' },
            'resetConnection',
            'askConnect',
          ],
          exit: 'clearPairingUri',
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
                    error: event.error ?? err('WALLET_ERROR', 'The wallet did not connect.'),
                  }),
                },
              },
              { actions: 'storePairingUri' },
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
        reconnecting: {
          // Silent: however it ends short of connected, the view shows no error (`quiet`); the
          // wallet stays selected, so `connect()` asks it with a prompt.
          tags: ['busy', 'cancellable'],
          entry: ['resetConnection', 'askReconnect'],
          on: {
            'CONNECTION.CHANGED': [
              {
                guard: { type: 'childIn', params: ['connected'] },
                target: 'connected',
                actions: ['storeConnection', { type: 'settle', params: { error: null } }],
              },
              {
                guard: { type: 'childIn', params: ['failed'] },
                target: 'disconnected',
                actions: {
                  type: 'settle',
                  params: ({ event }) => ({
                    error: event.error ?? err('NOT_CONNECTED', 'The wallet did not reconnect.'),
                    quiet: true,
                  }),
                },
              },
            ],
            CANCEL: {
              target: 'disconnected',
              actions: [
                'resetConnection',
                { type: 'settle', params: { error: err('ABORTED', 'Cancelled.'), quiet: true } },
              ],
            },
          },
          after: {
            reconnectMs: {
              target: 'disconnected',
              actions: [
                'resetConnection',
                {
                  type: 'settle',
                  params: {
                    error: err('TIMEOUT', 'The wallet did not answer the reconnect in time.'),
                    quiet: true,
                  },
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
              { target: 'disconnected' },
            ],
            // One wallet request at a time: not while the wallet is asked for a transaction.
            SIGN: {
              guard: 'noFlowPending',
              target: 'signing',
              actions: [{ type: 'startFlow', params: 'sign' }, 'storeSignRequest'],
            },
            SWITCH_CHAIN: {
              guard: 'noFlowPending',
              target: 'switchingChain',
              actions: { type: 'startFlow', params: 'switchChain' },
            },
            DISCONNECT: {
              target: 'disconnecting',
              actions: { type: 'startFlow', params: 'disconnect' },
            },
          },
        },
        switchingChain: {
          tags: ['connected', 'busy', 'cancellable'],
          entry: { type: 'armDeadline', params: 'walletAnswerMs' },
          invoke: {
            id: 'switchChain',
            src: 'switchChain',
            input: ({ event }) => ({ chainId: event.type === 'SWITCH_CHAIN' ? event.chainId : '' }),
            onDone: {
              target: 'connected',
              actions: [
                { type: 'confirmChain', params: ({ event }) => event.output.chainId },
                { type: 'settle', params: { error: null } },
              ],
            },
            onError: {
              target: 'connected',
              actions: { type: 'settle', params: failedWith('WALLET_ERROR') },
            },
          },
          on: {
            'CONNECTION.CHANGED': [
              { guard: { type: 'childIn', params: ['connected'] }, actions: 'storeConnection' },
              {
                target: 'disconnected',
                actions: {
                  type: 'settle',
                  params: { error: err('NOT_CONNECTED', 'The wallet disconnected.') },
                },
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
            walletAnswerMs: {
              target: 'connected',
              actions: {
                type: 'settle',
                params: {
                  error: err('TIMEOUT', 'The wallet did not answer the chain switch in time.'),
                },
              },
            },
          },
        },
        signing: {
          tags: ['connected', 'busy', 'cancellable'],
          entry: { type: 'armDeadline', params: 'signatureMs' },
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
            onError: {
              target: 'connected',
              actions: {
                type: 'settle',
                params: failedWith('WALLET_ERROR'),
              },
            },
          },
          initial: 'requesting',
          states: { requesting: { entry: 'askSignature' } },
          on: {
            'CONNECTION.CHANGED': [
              // Which account signed is not known: the signature is not returned.
              {
                guard: 'accountChanged',
                target: 'connected',
                actions: [
                  'storeConnection',
                  {
                    type: 'settle',
                    params: {
                      error: err(
                        'ACCOUNT_CHANGED',
                        "The wallet's account changed while it was asked to sign: the signature is not returned.",
                      ),
                    },
                  },
                ],
              },
              { guard: { type: 'childIn', params: ['connected'] }, actions: 'storeConnection' },
              {
                target: 'disconnected',
                actions: {
                  type: 'settle',
                  params: { error: err('NOT_CONNECTED', 'The wallet disconnected.') },
                },
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
          entry: [{ type: 'armDeadline', params: 'walletAnswerMs' }, 'askDisconnect'],
          on: {
            'CONNECTION.CHANGED': {
              guard: { type: 'childIn', params: ['idle'] },
              target: 'disconnected',
              actions: { type: 'settle', params: { error: null } },
            },
          },
          after: {
            walletAnswerMs: {
              target: 'disconnected',
              actions: ['resetConnection', { type: 'settle', params: { error: null } }],
            },
          },
        },
      },
    },
    link: {
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
          // A flow starts with no poll trouble (cleared here, not on exit: a timeout's message reads it).
          entry: 'clearLinkPolls',
          // Every way out of the flow leaves it without a connection.
          exit: 'clearConnection',
          invoke: {
            id: 'universalLink',
            systemId: 'universalLink',
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
                type: 'forward',
                params: ({ event }) => ({
                  type: 'LINK.CHANGED' as const,
                  status: String(event.snapshot.value),
                  connection: event.snapshot.context.connection,
                  signature: event.snapshot.context.txSignature ?? event.snapshot.context.signature,
                  polls: linkPollTrouble(event.snapshot),
                }),
              },
            },
            onDone: {
              target: 'disconnected',
              actions: { type: 'settle', params: ({ event }) => ({ error: event.output.error }) },
            },
            onError: {
              target: 'disconnected',
              actions: {
                type: 'settle',
                params: failedWith('SESSION_FAILED'),
              },
            },
          },
          initial: 'connecting',
          states: {
            connecting: {
              tags: ['busy', 'cancellable', 'resumable'],
              entry: { type: 'armDeadline', params: 'walletAnswerMs' },
              on: {
                RESUMED: { target: 'connecting', reenter: true },
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
                    params: ({ context }) => ({
                      error: linkTimeoutError(
                        context.linkPolls,
                        'answer',
                        'The wallet did not answer in time.',
                      ),
                    }),
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
                    { type: 'startFlow', params: 'disconnect' },
                    { type: 'settle', params: { error: null } },
                  ],
                },
              },
            },
            signing: {
              tags: ['connected', 'busy', 'cancellable', 'resumable'],
              entry: { type: 'armDeadline', params: 'signatureMs' },
              on: {
                RESUMED: { target: 'signing', reenter: true },
                'LINK.CHANGED': {
                  guard: { type: 'childIn', params: ['connected'] },
                  target: 'connected',
                  actions: {
                    type: 'settle',
                    params: ({ event }) => ({ error: null, signature: event.signature }),
                  },
                },
              },
              after: {
                signatureMs: {
                  target: '#client.link.disconnected',
                  actions: {
                    type: 'settle',
                    params: ({ context }) => ({
                      error: linkTimeoutError(
                        context.linkPolls,
                        'signature',
                        'The wallet did not sign in time.',
                      ),
                    }),
                  },
                },
              },
            },
          },
          on: {
            // The child's polls, whichever state waits on them (a state's own handler goes first).
            'LINK.CHANGED': { actions: 'storeLinkPolls' },
            CANCEL: {
              target: 'disconnected',
              actions: { type: 'settle', params: { error: err('ABORTED', 'Cancelled.') } },
            },
            DISCONNECT: {
              target: 'disconnected',
              actions: { type: 'settle', params: { error: err('ABORTED', 'Disconnected.') } },
            },
          },
        },
      },
    },
    relay: {
      // A pairing starts with its relay connection not known to fail.
      entry: 'clearRelayDown',
      // Every way out of the relay states ends the pairing's bookkeeping.
      exit: 'endRelay',
      // The relay connection's state, whichever state waits on it (a state's own handler goes first).
      on: { 'PAIRING.CHANGED': { actions: 'storeRelayDown' } },
      invoke: {
        id: 'pairing',
        systemId: 'pairing',
        src: 'pairing',
        input: ({ context }) =>
          context.relay?.input as NonNullable<ClientContext['relay']>['input'],
        onSnapshot: {
          actions: {
            type: 'forward',
            params: ({ event }) => ({
              type: 'PAIRING.CHANGED' as const,
              status: event.snapshot.matches({ active: { flow: 'paired' } }) ? 'paired' : 'pairing',
              connection: event.snapshot.context.connection,
              // The record of the last request: its id and outcome, never its result.
              lastRequest: event.snapshot.context.lastRequest,
              relayDown: relayDownReason(event.snapshot.context),
            }),
          },
        },
        onDone: {
          target: 'idle',
          actions: { type: 'settle', params: ({ event }) => ({ error: event.output.error }) },
        },
        onError: {
          target: 'idle',
          actions: {
            type: 'settle',
            params: failedWith('RELAY_ERROR'),
          },
        },
      },
      initial: 'pairing',
      states: {
        pairing: {
          tags: ['busy', 'cancellable'],
          // The wallet's answer is bounded here too: a relay that never lets the pairing reach
          // its proposal's own expiry (refused sockets, a token that never comes) still ends.
          entry: { type: 'armDeadline', params: 'walletAnswerMs' },
          after: {
            walletAnswerMs: {
              target: '#client.idle',
              actions: {
                type: 'settle',
                params: ({ context }) => ({
                  error: relayTimeoutError(
                    context.relayDown,
                    'answer to the pairing',
                    'The wallet did not answer the pairing in time.',
                  ),
                }),
              },
            },
          },
          on: {
            'PAIRING.CHANGED': {
              guard: { type: 'childIn', params: ['paired'] },
              target: 'paired',
              actions: [
                'storeConnection',
                'forgetPairingUri',
                { type: 'settle', params: { error: null } },
              ],
            },
            CANCEL: {
              target: '#client.idle',
              actions: { type: 'settle', params: { error: err('ABORTED', 'Cancelled.') } },
            },
          },
        },
        paired: {
          tags: ['connected', 'resumable'],
          on: {
            // The wallet's accounts changed (`scr_sessionEvent`): the connection follows.
            'PAIRING.CHANGED': {
              guard: { type: 'childIn', params: ['paired'] },
              actions: 'storeConnection',
            },
            'RELAY.REQUEST': {
              target: 'signing',
              actions: [{ type: 'startFlow', params: 'sign' }, 'storeRelayRequest'],
            },
            DISCONNECT: {
              target: 'disconnecting',
              actions: { type: 'startFlow', params: 'disconnect' },
            },
          },
        },
        signing: {
          tags: ['connected', 'busy', 'cancellable'],
          entry: [{ type: 'armDeadline', params: 'signatureMs' }, 'askRelayRequest'],
          exit: 'clearRelayRequest',
          on: {
            'PAIRING.CHANGED': [
              // Which account signed is not known: the signature is not returned.
              {
                guard: 'accountChanged',
                target: 'paired',
                actions: [
                  'storeConnection',
                  {
                    type: 'settle',
                    params: {
                      error: err(
                        'ACCOUNT_CHANGED',
                        "The wallet's account changed while it was asked to sign: the signature is not returned.",
                      ),
                    },
                  },
                ],
              },
              {
                guard: { type: 'relayRequestIs', params: 'answered' },
                target: 'paired',
                actions: { type: 'settle', params: { error: null } },
              },
              {
                guard: { type: 'relayRequestIs', params: 'failed' },
                target: 'paired',
                actions: {
                  type: 'settle',
                  params: ({ event }) => ({
                    error:
                      event.lastRequest?.error ?? err('WALLET_ERROR', 'The wallet did not sign.'),
                  }),
                },
              },
            ],
            CANCEL: {
              target: 'paired',
              actions: { type: 'settle', params: { error: err('ABORTED', 'Cancelled.') } },
            },
            DISCONNECT: {
              target: 'disconnecting',
              actions: { type: 'startFlow', params: 'disconnect' },
            },
          },
          after: {
            signatureMs: {
              target: 'paired',
              actions: {
                type: 'settle',
                params: ({ context }) => ({
                  error: relayTimeoutError(
                    context.relayDown,
                    'signature',
                    'The wallet did not sign in time.',
                  ),
                }),
              },
            },
          },
        },
        disconnecting: {
          tags: ['busy'],
          entry: [{ type: 'armDeadline', params: 'walletAnswerMs' }, 'askRelayDisconnect'],
          after: {
            walletAnswerMs: {
              target: '#client.idle',
              actions: { type: 'settle', params: { error: null } },
            },
          },
        },
      },
    },
  },
})

/**
 * The root statechart's type (`typeof clientMachine`), for `ActorRefFrom`, `SnapshotFrom` and
 * `provide`.
 */
export type ClientMachine = typeof clientMachine
