import { topState } from '../shared/top-state'
import {
  ACCOUNT_CHANGED_WHILE_SIGNING,
  CANCELLED,
  clientSetup,
  err,
  failedWith,
} from './client.setup'

// The transitions several wallet states share, written once.

/** The connect child reports `connected`: the flow in progress succeeds with its connection. */
const reachedConnected = {
  guard: { type: 'childIn', params: ['connected'] },
  target: 'connected',
  actions: ['storeConnection', { type: 'settle', params: { error: null } }],
} as const

/** Still connected: the account and chain changes the child reports are kept. */
const keepConnection = {
  guard: { type: 'childIn', params: ['connected'] },
  actions: 'storeConnection',
} as const

/** Asked (a chain switch, a signature) when the wallet leaves: the request fails. */
const walletGone = {
  target: 'disconnected',
  actions: {
    type: 'settle',
    params: { error: err('NOT_CONNECTED', 'The wallet disconnected.') },
  },
} as const

/** `CANCEL` while the wallet is asked: the request is given up, the wallet stays connected. */
const cancelAsking = {
  target: 'connected',
  actions: { type: 'settle', params: { error: CANCELLED } },
} as const

/** `DISCONNECT` from a connected wallet, asked or not. */
const startDisconnect = {
  target: 'disconnecting',
  actions: { type: 'startFlow', params: 'disconnect' },
} as const

/** `wallet`: a desktop connector, driven by the `connect` child; signatures and chain switches. */
export const walletRegion = clientSetup.createStateConfig({
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
        params: ({ event: { snapshot } }) => ({
          type: 'CONNECTION.CHANGED' as const,
          status: topState(snapshot.value),
          connection: snapshot.context.connection,
          error: snapshot.context.error,
          pairingUri: snapshot.context.pairingUri,
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
      entry: [{ type: 'armDeadline', params: 'walletAnswerMs' }, 'resetConnection', 'askConnect'],
      exit: 'clearPairingUri',
      on: {
        'CONNECTION.CHANGED': [
          reachedConnected,
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
          actions: ['resetConnection', { type: 'settle', params: { error: CANCELLED } }],
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
          reachedConnected,
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
            { type: 'settle', params: { error: CANCELLED, quiet: true } },
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
      entry: 'readProjectChains',
      on: {
        // Account and chain changes are kept; any other state of the child means it is gone.
        'CONNECTION.CHANGED': [keepConnection, { target: 'disconnected' }],
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
        DISCONNECT: startDisconnect,
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
        'CONNECTION.CHANGED': [keepConnection, walletGone],
        CANCEL: cancelAsking,
        DISCONNECT: startDisconnect,
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
          guard: { type: 'signFailed', params: ({ event }) => topState(event.snapshot.value) },
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
                  error: ACCOUNT_CHANGED_WHILE_SIGNING,
                },
              },
            ],
          },
          keepConnection,
          walletGone,
        ],
        CANCEL: cancelAsking,
        DISCONNECT: startDisconnect,
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
})
