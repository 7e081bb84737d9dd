import {
  type AnyActorRef,
  type AnyStateMachine,
  assign,
  type EmittedFrom,
  type EventFromLogic,
  enqueueActions,
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
import { notProvided, notProvidedLogic } from '../shared/not-provided'
import type { SignMachine } from '../sign/sign.machine'
import type { TransactionMachine } from '../transaction/transaction.machine'
import type { TransactionSummary } from '../transaction/transaction.types'
import type { UniversalLinkMachine } from '../universal-link/universal-link.machine'
import type {
  ChildStatus,
  ClientContext,
  ClientEvent,
  ClientInput,
  ClientTag,
  ClientTimeouts,
  LinkPollTrouble,
  LoadConnectorInput,
  LoadedConnector,
  OperationKind,
  SignStatus,
} from './client.types'

/**
 * The promise actors are `notProvided` until the facade provides them (`provideClient`); the child
 * machines stand in as `notProvidedLogic` of their types (they load with their connector or with
 * `pair()`).
 */
const unprovided = notProvided('clientMachine', 'provideClient')

/** The stand-in of child machine `T`: its types, none of its code. */
const child = <T extends AnyStateMachine>(name: string) =>
  notProvidedLogic<SnapshotFrom<T>, EventFromLogic<T>, InputFrom<T>, EmittedFrom<T>>(name)

export const err = (code: AppErrorCode, message: string): ErrorData => ({ code, message })

/** The outcome of a flow given up on `CANCEL`. */
export const CANCELLED = err('ABORTED', 'Cancelled.')

/** The outcome of a signature whose wallet's account changed while it was asked (not returned). */
export const ACCOUNT_CHANGED_WHILE_SIGNING = err(
  'ACCOUNT_CHANGED',
  "The wallet's account changed while it was asked to sign: the signature is not returned.",
)

/** The settle parameters of a child that failed: its error, as plain data, else `code`. */
export const failedWith =
  (code: AppErrorCode) =>
  ({ event }: { event: { error: unknown } }) => ({ error: toErrorData(event.error, code) })

type ChildChange = Extract<
  ClientEvent,
  { type: 'CONNECTION.CHANGED' | 'LINK.CHANGED' | 'PAIRING.CHANGED' | 'TRANSACTION.CHANGED' }
>

/**
 * A transaction flow given up while the wallet is asked: the wallet may still send it (an EIP-1193
 * request cannot be taken back), so its `transaction` child keeps waiting for the answer.
 */
export const STILL_ASKED =
  ' The wallet was asked already and may still send it: getView().transaction follows its answer.'

/**
 * The lowest `<kind>.<n>` id no child of the root has: a settled read's id is taken again, since
 * XState keeps the transitions it found per event type, and ever-new ids (with them ever-new
 * `xstate.done.actor.*` types) would grow that cache with every read.
 */
function freeReadSlot(self: AnyActorRef, kind: 'config' | 'read'): string {
  const ids = childIds(self)
  let slot = 0
  while (ids.includes(`${kind}.${slot}`)) slot++
  return `${kind}.${slot}`
}

/** The ids of the root's children (none while a transition is only computed: `xstate/graph`). */
const childIds = (self: AnyActorRef): string[] => Object.keys(self.getSnapshot()?.children ?? {})

type ReadEvent = Extract<ClientEvent, { type: 'READ_CONFIG' | 'READ_BALANCE' | 'READ_BALANCES' }>

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
export const clientSetup = setup({
  types: {
    context: {} as ClientContext,
    events: {} as ClientEvent,
    input: {} as ClientInput,
    tags: {} as ClientTag,
  },
  actors: {
    /** Loads (dynamic import) and builds the connector of a wallet; the facade keeps the object. */
    loadConnector: fromPromise<LoadedConnector, LoadConnectorInput>(unprovided),
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
    readConfig: fromPromise<ConnectConfig>(unprovided),
    /** Asks the connected wallet to switch chains (adding the chain from the registry when unknown). */
    switchChain: fromPromise<{ chainId: string }, { chainId: string }>(unprovided),
    /** GET a token balance. */
    readBalance: fromPromise<TokenBalance, TokenBalanceQuery>(unprovided),
    readBalances: fromPromise<TokenBalanceResult[], readonly TokenBalanceQuery[]>(unprovided),
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
    /** No transaction flow is pending (its child, waiting for the wallet, stays). */
    noTransactionPending: ({ context }) => context.pending !== 'transaction',
    /** The pending flow is `kind`. */
    isPending: ({ context }, kind: OperationKind) => context.pending === kind,
    /** The loaded connector is the universal-link flow. */
    isUniversalLink: (_, connector: LoadedConnector) => connector.kind === 'universal-link',
    /** The child that raised this `*.CHANGED` event is in one of `states`. */
    childIn: ({ event }, states: readonly ChildStatus[]) =>
      'status' in event && states.includes(event.status),
    /** A transaction may start: a wallet connected (not over a universal link), no flow pending. */
    canSendTransaction: ({ context }) =>
      context.connection !== null &&
      context.pending === null &&
      context.connector?.kind !== 'universal-link',
    /** The wallet answered the pending transaction flow (not a replaced one) with its hash. */
    transactionSent: ({ context, event }) =>
      event.type === 'TRANSACTION.CHANGED' &&
      context.pending === 'transaction' &&
      event.flow === context.flow &&
      event.hash !== null,
    /**
     * The pending transaction flow's child ended with no hash: the wallet did not send it. (One
     * `transaction` child at a time: a new flow's `SEND_TRANSACTION` stops the previous one, and a
     * watched transaction has its hash.)
     */
    transactionFailed: ({ context }, output: TransactionSummary) =>
      context.pending === 'transaction' && output.hash === null,
    /** The `sign` child stopped at a rejection or a failure (its state value). */
    signFailed: (_, value: SignStatus) => value === 'rejected' || value === 'failed',
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
    endRelay: assign({ relay: null, connector: null, connection: null }),
    askRelayRequest: sendTo('pairing', ({ context }) => ({
      type: 'REQUEST' as const,
      requestId: context.relay?.request?.requestId ?? '',
      method: context.relay?.request?.method ?? '',
    })),
    /**
     * Leaving `relay.signing`: the request leaves the context. One the pairing did not settle
     * (`signatureMs`, `CANCEL`, an account change) is given up there too (`ABANDON`), or the next
     * would queue behind it — not when the pairing itself ended (its done or error event).
     */
    endRelayRequest: enqueueActions(({ context: { relay }, event, enqueue }) => {
      const requestId = relay?.request?.requestId
      if (!relay || !requestId) return
      if (
        !event.type.endsWith('pairing') &&
        !('lastRequest' in event && event.lastRequest?.requestId === requestId)
      )
        enqueue.sendTo('pairing', { type: 'ABANDON', requestId })
      enqueue.assign({ relay: { ...relay, request: null } })
    }),
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
    storeLinkPolls: assign({ linkPolls: (_, trouble: LinkPollTrouble | null) => trouble }),
    clearLinkPolls: assign({ linkPolls: null }),
    /** Whether the pairing's relay connection is down (for a relay timeout's message). */
    storeRelayDown: assign({ relayDown: (_, reason: string | null) => reason }),
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
    /** A config read's networks are the project's chains (for the view's `chainSupported`). */
    storeProjectChains: assign({
      projectChains: ({ context, event }) =>
        (event as { output?: ConnectConfig }).output?.networks.map(({ networkId }) => networkId) ??
        context.projectChains,
    }),
    /**
     * Connected: the view's `chainSupported` needs the project's chains. They are read unless
     * known or being read; a failed read leaves them unknown until the next connected state.
     */
    readProjectChains: enqueueActions(({ context, self, enqueue }) => {
      if (context.projectChains === null && context.connection !== null)
        if (!childIds(self).some((id) => id.startsWith('config.')))
          enqueue.spawnChild('readConfig', { id: freeReadSlot(self, 'config') })
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
      // Its snapshots reach the root (`xstate.snapshot.transaction`): it reports as invoked children do.
      syncSnapshot: true,
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
    /**
     * A read the Client asked for: its caller finds it by the event's `id`, its system id (an id in
     * use already is not given twice: that read runs unnamed).
     */
    spawnRead: enqueueActions(({ event, self, enqueue }) => {
      const read = event as ReadEvent
      const config = read.type === 'READ_CONFIG'
      const src = config ? 'readConfig' : 'query' in read ? 'readBalance' : 'readBalances'
      enqueue.spawnChild(src as 'readBalance', {
        id: freeReadSlot(self, config ? 'config' : 'read'),
        input: ('query' in read ? read.query : 'queries' in read ? read.queries : null) as never,
        ...(self.system.get(read.id) ? {} : { systemId: read.id }),
      })
    }),
  },
})
