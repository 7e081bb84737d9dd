import { assign, fromCallback, fromPromise, setup } from 'xstate'
import { notProvided } from '../shared/not-provided'
import { walletErrorData } from '../shared/wallet-error-data'
import type {
  ConnectContext,
  ConnectEvent,
  ConnectInput,
  ConnectionData,
  PairingUriEvent,
  WalletWatchEvent,
} from './connect.types'

/** The error of a failed actor, as a guard's or action's parameter. */
const errorOf = ({ event }: { event: { error: unknown } }) => event.error

/**
 * The wallet connection chart. Pure: `connectWallet`, `reconnectWallet`, `watchWallet` and
 * `disconnectWallet` are provided bound to a connector (see `createConnectActors`); the connector
 * never enters context.
 *
 * idle → connecting → connected | rejected (user said no) | failed; idle → reconnecting (no
 * prompt: the wallet's standing authorization) → connected | failed (`NOT_CONNECTED` when it has
 * none); connected follows account and chain changes and wallet-side disconnects; DISCONNECT →
 * disconnecting → idle; RETRY from rejected/failed.
 */
export const connectMachine = setup({
  types: {} as {
    context: ConnectContext
    events: ConnectEvent
    input: ConnectInput
    tags: 'connected'
  },
  actors: {
    connectWallet: fromPromise<ConnectionData>(
      notProvided('connectWallet', 'machine.provide or createConnectActor'),
    ),
    reconnectWallet: fromPromise<ConnectionData>(
      notProvided('reconnectWallet', 'machine.provide or createConnectActor'),
    ),
    watchWallet: fromCallback<ConnectEvent, void, WalletWatchEvent>(
      notProvided('watchWallet', 'machine.provide or createConnectActor'),
    ),
    watchPairingUri: fromCallback<ConnectEvent, void, PairingUriEvent>(
      notProvided('watchPairingUri', 'machine.provide or createConnectActor'),
    ),
    disconnectWallet: fromPromise<void>(
      notProvided('disconnectWallet', 'machine.provide or createConnectActor'),
    ),
  },
  guards: {
    /** The wallet's error is a user rejection. */
    isUserRejection: (_, error: unknown) => walletErrorData(error).code === 'USER_REJECTED',
    hasNoAccounts: ({ event }) =>
      event.type === 'WALLET.ACCOUNTS_CHANGED' && event.accounts.length === 0,
  },
  actions: {
    assignConnection: assign({
      connection: (_, connection: ConnectionData) => ({ ...connection }),
      error: null,
    }),
    assignError: assign({ error: (_, error: unknown) => walletErrorData(error) }),
    clearError: assign({ error: null }),
    clearConnection: assign({ connection: null }),
    /** The URI a remote wallet pairs from (WalletConnect), while connecting. */
    assignPairingUri: assign({
      pairingUri: ({ event }) => (event.type === 'WALLET.PAIRING_URI' ? event.uri : null),
    }),
    clearPairingUri: assign({ pairingUri: null }),
    assignAccounts: assign({
      connection: ({ context, event }) =>
        context.connection && event.type === 'WALLET.ACCOUNTS_CHANGED'
          ? { ...context.connection, accounts: [...event.accounts] }
          : context.connection,
    }),
    assignChain: assign({
      connection: ({ context, event }) =>
        context.connection && event.type === 'WALLET.CHAIN_CHANGED'
          ? { ...context.connection, chainId: event.chainId }
          : context.connection,
    }),
  },
}).createMachine({
  id: 'connect',
  context: ({ input }) => ({
    connectorId: input.connectorId,
    connection: null,
    error: null,
    pairingUri: null,
  }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        CONNECT: { target: 'connecting', actions: 'clearError' },
        RECONNECT: { target: 'reconnecting', actions: 'clearError' },
      },
    },
    reconnecting: {
      invoke: {
        id: 'reconnectWallet',
        src: 'reconnectWallet',
        onDone: {
          target: 'connected',
          actions: { type: 'assignConnection', params: ({ event }) => event.output },
        },
        onError: { target: 'failed', actions: { type: 'assignError', params: errorOf } },
      },
      on: { RESET: 'idle' },
    },
    connecting: {
      exit: 'clearPairingUri',
      invoke: [
        {
          id: 'connectWallet',
          src: 'connectWallet',
          onDone: {
            target: 'connected',
            actions: { type: 'assignConnection', params: ({ event }) => event.output },
          },
          onError: [
            {
              guard: { type: 'isUserRejection', params: errorOf },
              target: 'rejected',
              actions: { type: 'assignError', params: errorOf },
            },
            { target: 'failed', actions: { type: 'assignError', params: errorOf } },
          ],
        },
        { id: 'watchPairingUri', src: 'watchPairingUri' },
      ],
      on: { RESET: 'idle', 'WALLET.PAIRING_URI': { actions: 'assignPairingUri' } },
    },
    connected: {
      tags: ['connected'],
      invoke: { id: 'watchWallet', src: 'watchWallet' },
      on: {
        'WALLET.ACCOUNTS_CHANGED': [
          { guard: 'hasNoAccounts', target: 'idle', actions: 'clearConnection' },
          { actions: 'assignAccounts' },
        ],
        'WALLET.CHAIN_CHANGED': { actions: 'assignChain' },
        'WALLET.DISCONNECTED': { target: 'idle', actions: 'clearConnection' },
        DISCONNECT: 'disconnecting',
      },
    },
    disconnecting: {
      invoke: {
        id: 'disconnectWallet',
        src: 'disconnectWallet',
        onDone: { target: 'idle', actions: 'clearConnection' },
        // The connection is dropped locally either way; the error is kept for display.
        onError: {
          target: 'idle',
          actions: ['clearConnection', { type: 'assignError', params: errorOf }],
        },
      },
    },
    rejected: {
      description: 'The user rejected the connection in the wallet (USER_REJECTED).',
      on: {
        RETRY: { target: 'connecting', actions: 'clearError' },
        RESET: { target: 'idle', actions: 'clearError' },
      },
    },
    failed: {
      on: {
        RETRY: { target: 'connecting', actions: 'clearError' },
        RESET: { target: 'idle', actions: 'clearError' },
      },
    },
  },
})

/** The connect statechart's type (`typeof connectMachine`). */
export type ConnectMachine = typeof connectMachine
