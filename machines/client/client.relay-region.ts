import { relayDownReason, relayTimeoutError } from './client.link-polls'
import {
  ACCOUNT_CHANGED_WHILE_SIGNING,
  CANCELLED,
  clientSetup,
  err,
  failedWith,
} from './client.setup'
import type { ClientContext } from './client.types'

/** `DISCONNECT` from a paired wallet, asked or not. */
const startDisconnect = {
  target: 'disconnecting',
  actions: { type: 'startFlow', params: 'disconnect' },
} as const

/** `relay`: a wallet paired over the relay (`PAIR`), driven by the `pairing` child. */
export const relayRegion = clientSetup.createStateConfig({
  // A pairing starts with its relay connection not known to fail.
  entry: 'clearRelayDown',
  // Every way out of the relay states ends the pairing's bookkeeping.
  exit: 'endRelay',
  invoke: {
    id: 'pairing',
    systemId: 'pairing',
    src: 'pairing',
    input: ({ context }) => context.relay?.input as NonNullable<ClientContext['relay']>['input'],
    onSnapshot: {
      actions: [
        // The relay connection's state, in every relay state: kept here, not by a PAIRING.CHANGED
        // handler, which the states' own (pairing → paired, paired's account changes) would shadow.
        {
          type: 'storeRelayDown',
          params: ({ event: { snapshot } }) => relayDownReason(snapshot.context),
        },
        {
          type: 'forward',
          params: ({ event: { snapshot } }) => ({
            type: 'PAIRING.CHANGED' as const,
            status: snapshot.matches({ active: { flow: 'paired' } }) ? 'paired' : 'pairing',
            connection: snapshot.context.connection,
            // The record of the last request: its id and outcome, never its result.
            lastRequest: snapshot.context.lastRequest,
          }),
        },
      ],
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
          actions: { type: 'settle', params: { error: CANCELLED } },
        },
      },
    },
    paired: {
      tags: ['connected', 'resumable'],
      entry: 'readProjectChains',
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
        DISCONNECT: startDisconnect,
      },
    },
    signing: {
      tags: ['connected', 'busy', 'cancellable'],
      entry: [{ type: 'armDeadline', params: 'signatureMs' }, 'askRelayRequest'],
      exit: 'endRelayRequest',
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
                  error: ACCOUNT_CHANGED_WHILE_SIGNING,
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
                error: event.lastRequest?.error ?? err('WALLET_ERROR', 'The wallet did not sign.'),
              }),
            },
          },
        ],
        CANCEL: {
          target: 'paired',
          actions: { type: 'settle', params: { error: CANCELLED } },
        },
        DISCONNECT: startDisconnect,
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
})
