import { topState } from '../shared/top-state'
import { linkPollTrouble, linkTimeoutError } from './client.link-polls'
import { CANCELLED, clientSetup, err, failedWith } from './client.setup'

/** `link`: a mobile wallet over a universal link, driven by the `universalLink` child. */
export const linkRegion = clientSetup.createStateConfig({
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
          actions: [
            // The child's polls, in every flow state: kept here, not by a LINK.CHANGED handler,
            // which the states' own (connecting → connected, signing → connected) would shadow.
            {
              type: 'storeLinkPolls',
              params: ({ event: { snapshot } }) => linkPollTrouble(snapshot),
            },
            {
              type: 'forward',
              params: ({ event: { snapshot } }) => ({
                type: 'LINK.CHANGED' as const,
                status: topState(snapshot.value),
                connection: snapshot.context.connection,
                signature: snapshot.context.txSignature ?? snapshot.context.signature,
              }),
            },
          ],
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
          entry: 'readProjectChains',
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
        CANCEL: {
          target: 'disconnected',
          actions: { type: 'settle', params: { error: CANCELLED } },
        },
        DISCONNECT: {
          target: 'disconnected',
          actions: { type: 'settle', params: { error: err('ABORTED', 'Disconnected.') } },
        },
      },
    },
  },
})
