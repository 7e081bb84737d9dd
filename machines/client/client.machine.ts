import { linkRegion } from './client.link-region'
import { operationsRegion } from './client.operations-region'
import { relayRegion } from './client.relay-region'
import { CANCELLED, clientSetup, err, failedWith } from './client.setup'
import { DEFAULT_CLIENT_TIMEOUTS } from './client.types'
import { walletRegion } from './client.wallet-region'

/**
 * The `Client`'s root statechart: one actor system for the whole library. It is assembled from its
 * regions: `selecting` (the connector loads)
 * here, then `wallet` (client.wallet-region.ts), `link` (client.link-region.ts) or `relay`
 * (client.relay-region.ts); reads and transactions run beside them (client.operations-region.ts).
 * The actors, guards, actions and delays all regions share are in client.setup.ts.
 */
export const clientMachine = clientSetup.createMachine({
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
    ...operationsRegion.on,
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
          actions: { type: 'settle', params: { error: CANCELLED } },
        },
      },
    },
    wallet: walletRegion,
    link: linkRegion,
    relay: relayRegion,
  },
})

/**
 * The root statechart's type (`typeof clientMachine`), for `ActorRefFrom`, `SnapshotFrom` and
 * `provide`.
 */
export type ClientMachine = typeof clientMachine
