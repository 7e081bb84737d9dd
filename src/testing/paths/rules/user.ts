import type { Caip2ChainId } from '../../../registry/types'
import type { ClientStep } from '../types'
import type { ClientPathWorld } from '../world'
import type { StepRule } from './outcome'
import {
  aborted,
  canConnectPhone,
  connectionChanged,
  current,
  DESKTOP,
  EVERY,
  LINK,
  loaded,
  MESSAGE,
  PAIRING,
  PHONE_LINK,
  pairingDone,
  RELAY_REQUEST,
  SIGN_MESSAGE,
  selectPhone,
  transactionUnsent,
  view,
} from './shared'

// The user's steps: each calls a public method of the Client (what the UI's handler does) and
// sends what that method sends the chart.

/** The dApp as `pair()` presents it in the paths. */
const PAIR_METADATA = { name: 'Generated paths', url: 'https://dapp.test' }

/** What a path's `sendTransaction` sends: nothing, to the second account. */
const transactionTo = (world: ClientPathWorld) => world.accounts[1] ?? world.accounts[0] ?? ''

/** The chain after `from` in `list` (the first when `from` is not in it). */
const nextChain = (list: readonly string[], from: string | null): string =>
  list[(list.indexOf(from ?? '') + 1) % list.length] ?? ''

const selectWallet: StepRule = {
  id: 'user.selectWallet',
  flows: DESKTOP,
  at: (_, world) => ({
    step: {
      kind: 'user',
      type: 'selectWallet',
      description: `selects ${world.walletId}`,
      run: (client) => client.selectWallet(world.walletId, { namespace: world.namespace }),
    },
    events: [
      {
        type: 'SELECT_WALLET',
        walletId: world.walletId,
        namespace: world.namespace,
        connect: false,
      },
      loaded(world),
    ],
  }),
}

const connect: StepRule = {
  id: 'user.connect',
  flows: DESKTOP,
  at: (snapshot, world) => {
    const v = view(snapshot)
    if (!v.canConnect) return null
    const step: ClientStep = {
      kind: 'user',
      type: 'connect',
      description: 'connects',
      run: (client) => client.connect(),
    }
    // The Client connects the selected wallet, else selects the first connector and connects.
    return snapshot.hasTag('selected')
      ? { step, events: [{ type: 'CONNECT' }] }
      : {
          step,
          events: [
            { type: 'SELECT_WALLET', walletId: null, namespace: null, connect: true },
            loaded(world),
          ],
        }
  },
}

const pair: StepRule = {
  id: 'user.pair',
  flows: PAIRING,
  at: (snapshot, world) =>
    view(snapshot).isBusy
      ? null
      : {
          step: {
            kind: 'user',
            type: 'pair',
            description: 'pairs a phone wallet (QR code)',
            run: async (client) => {
              const flow = await client.pair({
                namespace: world.namespace,
                // The world's first chain, as the chart's event asks for it.
                chains: [world.chains[0] ?? ''] as Caip2ChainId[],
                metadata: PAIR_METADATA,
              })
              // The app shows the approval's failure from the view (`view.error`).
              flow.approval.catch(() => {})
              return flow
            },
          },
          events: [
            {
              type: 'PAIR',
              uri: 'scope:path@1?symKey=k',
              input: {
                pairingId: '00'.repeat(16),
                proposalId: 1,
                relayUrl: 'wss://relay.test',
                requiredNamespaces: {
                  [world.namespace]: {
                    chains: [world.chains[0] ?? ''],
                    methods: ['personal_sign'],
                  },
                },
                metadata: PAIR_METADATA,
                proposalExpiresAt: 1,
                startedAt: 0,
              },
            },
          ],
        },
}

const selectPhoneWallet: StepRule = {
  id: 'user.selectPhoneWallet',
  flows: LINK,
  at: (snapshot, world) => {
    const v = view(snapshot)
    if (v.isBusy || v.isConnected) return null
    return {
      step: {
        kind: 'user',
        type: 'selectWallet',
        description: `selects ${world.phone.walletId} on a phone (universal link)`,
        run: (client) =>
          client.selectWallet(world.phone.walletId, { namespace: world.phone.namespace }),
      },
      events: selectPhone(world, false),
    }
  },
}

const connectPhone: StepRule = {
  id: 'user.connectPhone',
  flows: LINK,
  at: (snapshot) => {
    if (!canConnectPhone(snapshot)) return null
    return {
      step: {
        kind: 'user',
        type: 'connect',
        description: 'connects (the wallet app opens on its link)',
        run: (client) => client.connect(),
      },
      // The child creates the backend session, then opens the wallet and awaits it.
      events: [{ type: 'CONNECT' }, { type: 'WALLET_OPENED', url: PHONE_LINK }],
      shows: ['connecting', 'awaitingWallet'],
    }
  },
}

const signMessage: StepRule = {
  id: 'user.signMessage',
  flows: EVERY,
  at: (snapshot) => {
    const v = view(snapshot)
    if (!v.canSign) return null
    const step: ClientStep = {
      kind: 'user',
      type: 'signMessage',
      description: 'signs a message',
      run: (client) => client.signMessage(MESSAGE),
    }
    // Over a paired session the request goes to the wallet over the relay.
    return v.connectionKind === 'relay'
      ? { step, events: [{ type: 'RELAY.REQUEST', ...RELAY_REQUEST }] }
      : { step, events: [SIGN_MESSAGE] }
  },
}

const cancel: StepRule = {
  id: 'user.cancel',
  flows: EVERY,
  at: (snapshot) =>
    view(snapshot).canCancel
      ? {
          step: {
            kind: 'user',
            type: 'cancel',
            description: 'cancels',
            run: async (client) => client.cancel(),
          },
          // A transaction's own chart ends it (aborted) and tells the root.
          events:
            snapshot.context.pending === 'transaction'
              ? [{ type: 'CANCEL' }, transactionUnsent('aborted', aborted)]
              : [{ type: 'CANCEL' }],
        }
      : null,
}

const switchChain = /* @__PURE__ */ (['known', 'addable'] as const).map(
  (which): StepRule => ({
    id: `user.switchChain.${which}`,
    flows: DESKTOP,
    at: (snapshot, world) => {
      const now = current(snapshot)
      if (now === null || !now.canSign) return null
      const chainId = which === 'known' ? nextChain(world.chains, now.chainId) : world.addableChain
      if (chainId === now.chainId) return null
      const description =
        which === 'known'
          ? `switches to ${chainId}`
          : `switches to ${chainId}, which the wallet does not know (4902: it is asked to add it)`
      return {
        step: {
          kind: 'user',
          type: 'switchChain',
          description,
          chainId,
          run: (client) => client.switchChain(chainId as Caip2ChainId),
        },
        events: [{ type: 'SWITCH_CHAIN', chainId }],
      }
    },
  }),
)

const sendTransaction: StepRule = {
  id: 'user.sendTransaction',
  flows: DESKTOP,
  at: (snapshot, world) => {
    const now = current(snapshot)
    if (now === null || !now.canSign) return null
    const to = transactionTo(world)
    return {
      step: {
        kind: 'user',
        type: 'sendTransaction',
        description: 'sends a transaction',
        run: (client) => client.sendTransaction({ to, value: 0n }),
      },
      events: [
        {
          type: 'SEND_TRANSACTION',
          input: {
            request: {
              chainId: now.chainId ?? '',
              from: now.address ?? '',
              calls: [{ to, value: '0x0', data: null }],
              fields: {},
              transaction: null,
            },
            confirmations: 1,
          },
        },
      ],
    }
  },
}

const disconnect: StepRule = {
  id: 'user.disconnect',
  flows: EVERY,
  at: (snapshot) => {
    const v = view(snapshot)
    if (!v.isConnected) return null
    const step: ClientStep = {
      kind: 'user',
      type: 'disconnect',
      description: 'disconnects',
      run: (client) => client.disconnect(),
    }
    // A paired session is deleted over the relay (the pairing child ends); a desktop wallet
    // forgets the permission at once, without a prompt (the connect child is idle again); a
    // universal-link connection is the page's only.
    if (v.connectionKind === 'universal-link') return { step, events: [{ type: 'DISCONNECT' }] }
    return v.connectionKind === 'relay'
      ? { step, events: [{ type: 'DISCONNECT' }, pairingDone('disconnected', null)] }
      : { step, events: [{ type: 'DISCONNECT' }, connectionChanged('idle')] }
  },
}

/** The user's steps, by id. */
export const userRules = {
  selectWallet,
  connect,
  pair,
  selectPhoneWallet,
  connectPhone,
  signMessage,
  cancel,
  switchChain,
  sendTransaction,
  disconnect,
}
