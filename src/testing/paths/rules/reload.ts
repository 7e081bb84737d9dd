import type { StepRule } from './outcome'
import {
  ALL,
  connection,
  connectionChanged,
  current,
  DESKTOP,
  LINK,
  linkConnected,
  locked,
  PHONE_LINK,
  reconnectEvents,
  SIGN_MESSAGE,
  selectPhone,
  view,
} from './shared'

// The page reloads: a fresh root, then what `resume()` sends it from the stores.

const reload: StepRule = {
  id: 'reload',
  flows: ALL,
  at: (snapshot, world) => {
    const now = current(snapshot)
    if (now === null)
      return {
        step: { kind: 'reload', description: 'the page reloads' },
        restart: true,
        events: [],
      }
    // A desktop connection is kept: `resume()` restores it without a prompt.
    return {
      step: {
        kind: 'reload',
        reconnect: 'authorized',
        description: 'the page reloads (resume() reconnects the wallet silently)',
      },
      restart: true,
      events: [
        ...reconnectEvents(world),
        connectionChanged('connected', {
          connection: connection(world, now.accounts, now.chainId ?? ''),
        }),
      ],
    }
  },
}

/** The universal-link store keeps the flow: `resume()` restores it, still awaiting the wallet. */
const awaitingWallet: StepRule = {
  id: 'reload.awaitingWallet',
  flows: LINK,
  at: (snapshot, world) =>
    view(snapshot).status === 'awaitingWallet'
      ? {
          step: {
            kind: 'reload',
            description: 'the page reloads (resume() restores the flow awaiting the wallet)',
          },
          restart: true,
          events: [...selectPhone(world, true), { type: 'WALLET_OPENED', url: PHONE_LINK }],
          // `resume()` replaces the fresh root with the restored one: no change of its own.
          shows: ['awaitingWallet'],
        }
      : null,
}

/**
 * A connected link flow keeps its record until disconnect(): `resume()` restores it as it stood,
 * connected or awaiting a signature.
 */
const linkConnectedReload: StepRule = {
  id: 'reload.linkConnected',
  flows: LINK,
  at: (snapshot, world) => {
    const v = view(snapshot)
    if (v.connectionKind !== 'universal-link' || !v.isConnected) return null
    const connected = [
      ...selectPhone(world, true),
      { type: 'WALLET_OPENED' as const, url: PHONE_LINK },
      linkConnected(world, null),
    ]
    return v.status === 'awaitingSignature'
      ? {
          step: {
            kind: 'reload',
            description: 'the page reloads (resume() restores the flow awaiting the signature)',
          },
          restart: true,
          events: [...connected, SIGN_MESSAGE],
          shows: ['awaitingSignature'],
        }
      : {
          step: {
            kind: 'reload',
            description: 'the page reloads (resume() restores the connected link session)',
          },
          restart: true,
          events: connected,
          shows: ['connected'],
        }
  },
}

const walletLocked: StepRule = {
  id: 'reload.walletLocked',
  flows: DESKTOP,
  at: (snapshot, world) =>
    current(snapshot) === null
      ? null
      : {
          step: {
            kind: 'reload',
            reconnect: 'locked',
            description: 'the page reloads, the wallet locked meanwhile (resume(): none)',
          },
          restart: true,
          events: [...reconnectEvents(world), connectionChanged('failed', { error: locked })],
        },
}

/** The reloads, in the table's order. */
export const reloadRules: StepRule[] = [reload, awaitingWallet, linkConnectedReload, walletLocked]
