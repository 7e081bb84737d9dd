import type { ClientEvent, ConnectionStatus } from '../../../../machines/client/client.types'
import { type ClientSnapshot, toClientView } from '../../../../machines/client/client.view'
import type { ErrorData } from '../../../../machines/shared/error-data'
import type { ClientFlow } from '../types'
import type { ClientPathWorld } from '../world'
import type { RuleEvent } from './outcome'

// What the rules share: the errors and connections the doubles report, the events a user's call
// sends, and the prompt the wallet shows. Each rule file holds one kind of step.

export const MESSAGE = 'Hello from a generated path'

export const rejected: ErrorData = { code: 'USER_REJECTED', message: 'User rejected the request.' }
export const failed: ErrorData = { code: 'WALLET_ERROR', message: 'Internal wallet error.' }
export const aborted: ErrorData = { code: 'ABORTED', message: 'Cancelled.' }
export const timedOut: ErrorData = {
  code: 'TIMEOUT',
  message: 'The wallet did not answer in time.',
}
export const locked: ErrorData = { code: 'NOT_CONNECTED', message: 'The wallet is locked.' }
export const backendError: ErrorData = { code: 'BACKEND_ERROR', message: 'The backend failed.' }
export const sessionFailed: ErrorData = {
  code: 'SESSION_FAILED',
  message: 'The wallet reported a failure (WALLET_INTERNAL_ERROR).',
}

export const view = toClientView

export const DESKTOP: readonly ClientFlow[] = ['desktop']
export const PAIRING: readonly ClientFlow[] = ['pairing']
export const ALL: readonly ClientFlow[] = ['desktop', 'pairing']
export const LINK: readonly ClientFlow[] = ['universalLink']
/** The steps every flow has: the wallet's answer, cancel, disconnect. */
export const EVERY: readonly ClientFlow[] = ['desktop', 'pairing', 'universalLink']

/** The desktop wallet's connection: its accounts (the active one first) on `chainId`. */
export const connection = (
  world: ClientPathWorld,
  accounts: readonly string[],
  chainId: string,
) => ({
  walletId: world.walletId,
  connectorId: world.walletId,
  namespace: world.namespace,
  chainId,
  accounts: [...accounts],
})

/** The `connection` child (the connect machine) reports a change: its status, connection, error. */
export const connectionChanged = (
  status: ConnectionStatus,
  change: { connection?: ReturnType<typeof connection>; error?: ErrorData } = {},
): ClientEvent => ({
  type: 'CONNECTION.CHANGED',
  status,
  connection: change.connection ?? null,
  error: change.error ?? null,
  pairingUri: null,
})

/** The request the root sends over a paired session (its id is the chart's own bookkeeping). */
export const RELAY_REQUEST = { requestId: 'path-request', method: 'personal_sign' }

/** The connection a paired session gives: the wallet's active account on the chain asked for. */
export const pairedConnection = (world: ClientPathWorld) => ({
  walletId: null,
  connectorId: 'relay',
  namespace: world.namespace,
  chainId: world.chains[0] ?? '',
  accounts: world.accounts.slice(0, 1),
})

/** The `pairing` child reports it is paired, with its connection and the end of its last request. */
export const pairingChanged = (
  world: ClientPathWorld,
  lastRequest: { status: 'answered' | 'failed'; error: ErrorData | null } | null,
): ClientEvent => ({
  type: 'PAIRING.CHANGED',
  status: 'paired',
  connection: pairedConnection(world),
  lastRequest: lastRequest === null ? null : { ...RELAY_REQUEST, ...lastRequest, at: 0 },
})

/** The paired session ended (a rejected proposal, a deleted session). */
export const pairingDone = (
  status: 'rejected' | 'disconnected',
  error: ErrorData | null,
): RuleEvent => ({ child: 'pairing', output: { status, session: null, error } })

/** The connection the phone wallet gives over a universal link. */
const phoneConnection = ({ phone }: ClientPathWorld) => ({
  walletId: phone.walletId,
  connectorId: phone.walletId,
  namespace: phone.namespace,
  chainId: phone.chainId,
  accounts: [phone.address],
})

/** The `universalLink` child reports the phone connected (or, with its signature, signed). */
export const linkConnected = (world: ClientPathWorld, signature: string | null): ClientEvent => ({
  type: 'LINK.CHANGED',
  status: 'connected',
  connection: phoneConnection(world),
  signature,
})

/** The `universalLink` child ended: the phone rejected or failed, or no session could be made. */
export const linkDone = (status: 'rejected' | 'failed', error: ErrorData): RuleEvent => ({
  child: 'universalLink',
  output: { status, error },
})

/** The `transaction` child ended before the wallet sent it (no hash), saying why. */
export const transactionUnsent = (
  outcome: 'rejected' | 'failed' | 'aborted',
  error: ErrorData,
): RuleEvent => ({
  child: 'transaction',
  output: {
    outcome,
    chainId: '',
    hash: null,
    blockNumber: null,
    confirmations: 0,
    replacedBy: null,
    revertReason: null,
    error,
  },
})

/** How often the paths' mobile Client polls the session (`universalLink.pollIntervalMs`). */
export const LINK_POLL_MS = 20

/** What `selectWallet` causes for the phone wallet on a mobile Client: the universal-link flow. */
export const selectPhone = ({ phone }: ClientPathWorld, connect: boolean): RuleEvent[] => [
  { type: 'SELECT_WALLET', walletId: phone.walletId, namespace: phone.namespace, connect },
  {
    child: 'loadConnector',
    output: {
      kind: 'universal-link',
      connectorId: phone.walletId,
      walletId: phone.walletId,
      chainId: phone.chainId,
      pollIntervalMs: LINK_POLL_MS,
    },
  },
]

/** What `signMessage` sends the chart (over a universal link, the `signMessage` link). */
export const SIGN_MESSAGE: ClientEvent = {
  type: 'SIGN',
  request: { method: 'personal_sign', params: [MESSAGE] },
  link: { method: 'signMessage', payload: null },
}

/** A stand-in for the signature the phone posts (the view does not show it). */
export const LINK_SIGNATURE = 'phone-signature'

/** A stand-in for the link the Client opens (its value is fresh per flow; the view shows one). */
export const PHONE_LINK = 'https://wallet.scope-connect.test/ul/v1/connect'

/** The connector `loadConnector` reports for the world's wallet (a custom connector). */
export const loaded = (world: ClientPathWorld): RuleEvent => ({
  child: 'loadConnector',
  output: { kind: 'wallet', connectorId: world.walletId, walletId: world.walletId, chainId: null },
})

/** What `resume()` sends for a stored desktop connection: `RECONNECT`, the connector loaded. */
export const reconnectEvents = (world: ClientPathWorld): RuleEvent[] => [
  {
    type: 'RECONNECT',
    walletId: world.walletId,
    namespace: world.namespace,
    connectorId: world.walletId,
  },
  loaded(world),
]

/** Whether the user can connect the phone wallet over its universal link now. */
export function canConnectPhone(snapshot: ClientSnapshot): boolean {
  const v = view(snapshot)
  return v.canConnect && v.connectionKind === 'universal-link'
}

/** The wallet's current connection in the snapshot (desktop), else null. */
export function current(snapshot: ClientSnapshot) {
  const v = view(snapshot)
  return v.isConnected && v.connectionKind === 'wallet' ? v : null
}

/** `list` turned so that the entry after `from` comes first (`from` last). */
export const rotate = <T>(list: readonly T[], from: T | null): T[] => {
  const at = from === null ? 0 : Math.max(0, list.indexOf(from))
  return [...list.slice(at + 1), ...list.slice(0, at + 1)]
}
