import type { AnyEventObject } from 'xstate'
import type { ClientTimeouts } from '../../../machines/client/client.types'
import {
  type ClientSnapshot,
  type ClientStatus,
  toClientView,
} from '../../../machines/client/client.view'
import type { ErrorData } from '../../../machines/shared/error-data'
import type { Caip2ChainId } from '../../registry/types'
import type { BackendFault } from '../doubles/answers'
import type { ClientFlow, ClientStep, FaultStep } from './types'
import type { ClientPathWorld } from './world'

/**
 * What a rule makes of a root snapshot: the step, and the root events it causes in the chart (the
 * user's call, then what the Client's actors report at once: a loaded connector, a child's
 * snapshot); or `restart` for a reload: a fresh root, then the events `resume()` causes in it.
 */
export type RuleOutcome = (
  | { step: ClientStep; events: readonly AnyEventObject[] }
  | { step: ClientStep; restart: true; events: readonly AnyEventObject[] }
) & {
  /**
   * The statuses the Client shows during the step where the chart's events cannot tell them: the
   * universal-link child's own stages (creating the session, then awaiting the wallet), a flow
   * `resume()` restores whole. Default: the statuses the events pass through.
   */
  shows?: readonly ClientStatus[]
}

/**
 * One row of the table that maps the chart's events to what a user, a wallet, the backend or time
 * does. `at` answers null where the step cannot happen. Rules decide from the public view (statuses,
 * flags) and the machine's own `after` transitions, never from state names: a rule keeps working
 * when the chart's states change. Add a row to add a kind of step.
 */
export interface StepRule {
  /** Unique id, e.g. `user.connect`. */
  id: string
  flows: readonly ClientFlow[]
  at(snapshot: ClientSnapshot, world: ClientPathWorld): RuleOutcome | null
}

const MESSAGE = 'Hello from a generated path'

const rejected: ErrorData = { code: 'USER_REJECTED', message: 'User rejected the request.' }
const failed: ErrorData = { code: 'WALLET_ERROR', message: 'Internal wallet error.' }
const aborted: ErrorData = { code: 'ABORTED', message: 'Cancelled.' }
const timedOut: ErrorData = { code: 'TIMEOUT', message: 'The wallet did not answer in time.' }
const locked: ErrorData = { code: 'NOT_CONNECTED', message: 'The wallet is locked.' }
const backendError: ErrorData = { code: 'BACKEND_ERROR', message: 'The backend failed.' }
const sessionFailed: ErrorData = {
  code: 'SESSION_FAILED',
  message: 'The wallet reported a failure (WALLET_INTERNAL_ERROR).',
}

const connection = (world: ClientPathWorld, accounts: readonly string[], chainId: string) => ({
  walletId: world.walletId,
  connectorId: world.walletId,
  namespace: world.namespace,
  chainId,
  accounts: [...accounts],
})

/** The `connect` child's snapshot, as the root's `onSnapshot` receives it. */
const connectChild = (value: string, context: Record<string, unknown>) => ({
  type: 'xstate.snapshot.connection',
  snapshot: { value, context: { connection: null, error: null, ...context } },
})

const signChild = (value: string, error: ErrorData) => ({
  type: 'xstate.snapshot.sign',
  snapshot: { value, context: { error } },
})

/** The `pairing` child's snapshot: paired or not, its connection, the end of its last request. */
const pairingChild = (
  paired: boolean,
  context: { connection?: unknown; lastRequest?: unknown },
) => ({
  type: 'xstate.snapshot.pairing',
  snapshot: {
    matches: (value: unknown) =>
      paired && JSON.stringify(value) === JSON.stringify({ active: { flow: 'paired' } }),
    context: { connection: null, lastRequest: null, ...context },
  },
})

/** The `pairing` child ended (a rejected proposal, a deleted session). */
const pairingDone = (status: 'rejected' | 'disconnected', error: ErrorData | null) => ({
  type: 'xstate.done.actor.pairing',
  output: { status, session: null, error },
})

/** The request the root sends over a paired session (its id is the chart's own bookkeeping). */
const RELAY_REQUEST = { requestId: 'path-request', method: 'personal_sign' }

const relayAnswer = (status: 'answered' | 'failed', error: ErrorData | null) => ({
  ...RELAY_REQUEST,
  status,
  error,
  at: 0,
})

/** The connection a paired session gives: the wallet's active account on the chain asked for. */
const pairedConnection = (world: ClientPathWorld) => ({
  walletId: null,
  connectorId: 'relay',
  namespace: world.namespace,
  chainId: world.chains[0] ?? '',
  accounts: world.accounts.slice(0, 1),
})

/** The connection the phone wallet gives over a universal link. */
const phoneConnection = ({ phone }: ClientPathWorld) => ({
  walletId: phone.walletId,
  connectorId: phone.walletId,
  namespace: phone.namespace,
  chainId: phone.chainId,
  accounts: [phone.address],
})

/** The `universalLink` child reports the phone connected (or, with its signature, signed). */
const linkConnected = (world: ClientPathWorld, signature: string | null) => ({
  type: 'LINK.CHANGED',
  status: 'connected',
  connection: phoneConnection(world),
  signature,
})

/** The `universalLink` child ended: the phone rejected or failed, or no session could be made. */
const linkDone = (status: 'rejected' | 'failed', error: ErrorData) => ({
  type: 'xstate.done.actor.universalLink',
  output: { status, error },
})

/** What `selectWallet` raises for the phone wallet on a mobile Client: the universal-link flow. */
const selectPhone = ({ phone }: ClientPathWorld, connect: boolean): AnyEventObject[] => [
  { type: 'SELECT_WALLET', walletId: phone.walletId, namespace: phone.namespace, connect },
  {
    type: 'xstate.done.actor.loadConnector',
    output: {
      kind: 'universal-link',
      connectorId: phone.walletId,
      walletId: phone.walletId,
      chainId: phone.chainId,
      pollIntervalMs: LINK_POLL_MS,
    },
  },
]

/** What `signMessage` raises in the chart (over a universal link, the `signMessage` link). */
const SIGN_MESSAGE = {
  type: 'SIGN',
  request: { method: 'personal_sign', params: [MESSAGE] },
  link: { method: 'signMessage', payload: null },
}

/** A stand-in for the signature the phone posts (the view does not show it). */
const LINK_SIGNATURE = 'phone-signature'

/** How often the paths' mobile Client polls the session (`universalLink.pollIntervalMs`). */
export const LINK_POLL_MS = 20

/** The connector `loadConnector` reports for the world's wallet (a custom connector). */
const loaded = (world: ClientPathWorld) => ({
  type: 'xstate.done.actor.loadConnector',
  output: { kind: 'wallet', connectorId: world.walletId, walletId: world.walletId, chainId: null },
})

const view = toClientView

/** The hash a path's transaction gets (the chart keeps it as the flow's outcome only). */
const TX_HASH = '0xabababababababababababababababababababababababababababababababab'
/** What a path's `sendTransaction` sends: nothing, to the second account. */
const transactionTo = (world: ClientPathWorld) => world.accounts[1] ?? world.accounts[0] ?? ''

/** The chain a running `switchChain` flow asked for (the invoked actor's input). */
function switchTarget(snapshot: ClientSnapshot): string {
  const child = (snapshot.children as Record<string, unknown>).switchChain as
    | { options?: { input?: { chainId?: string } } }
    | undefined
  return child?.options?.input?.chainId ?? ''
}

/** The chain after `from` in `list` (the first when `from` is not in it). */
const nextChain = (list: readonly string[], from: string | null): string =>
  list[(list.indexOf(from ?? '') + 1) % list.length] ?? ''

type Prompt =
  | 'connect'
  | 'sign'
  | 'proposal'
  | 'relaySign'
  | 'switch'
  | 'transaction'
  | 'link'
  | 'linkSign'

/**
 * The prompt the wallet shows: a desktop connection or signature request, a relay session
 * proposal (the phone scanned the QR code) or a request over the paired session.
 */
function prompt(snapshot: ClientSnapshot): Prompt | null {
  const v = view(snapshot)
  if (v.connectionKind === 'wallet' && v.status === 'connecting') return 'connect'
  if (v.connectionKind === 'wallet' && v.status === 'signing') return 'sign'
  if (v.connectionKind === 'relay' && v.status === 'pairing') return 'proposal'
  if (v.connectionKind === 'relay' && v.status === 'awaitingSignature') return 'relaySign'
  if (v.connectionKind === 'universal-link' && v.status === 'awaitingWallet') return 'link'
  if (v.connectionKind === 'universal-link' && v.status === 'awaitingSignature') return 'linkSign'
  if (v.status === 'switchingChain') return 'switch'
  if (snapshot.context.pending === 'transaction') return 'transaction'
  return null
}

/** What the wallet's answer to `asked` raises in the chart (null: that answer cannot happen there). */
function answerEvents(
  asked: Prompt,
  behaviour: 'approve' | 'reject' | 'error',
  world: ClientPathWorld,
  snapshot: ClientSnapshot,
): AnyEventObject[] | null {
  const error = behaviour === 'reject' ? rejected : failed
  switch (asked) {
    case 'switch': {
      if (behaviour !== 'approve') return [{ type: 'xstate.error.actor.switchChain', error }]
      // The wallet switched (or added the chain and switched): the connection follows.
      const chainId = switchTarget(snapshot)
      return [
        { type: 'xstate.done.actor.switchChain', output: { chainId } },
        connectChild('connected', {
          connection: connection(world, view(snapshot).accounts, chainId),
        }),
      ]
    }
    case 'transaction': {
      const flow = snapshot.context.flow
      return behaviour === 'approve'
        ? [{ type: 'TRANSACTION.SUBMITTED', flow, hash: TX_HASH }]
        : [{ type: 'TRANSACTION.FAILED', flow, error }]
    }
    case 'connect':
      return behaviour === 'approve'
        ? [
            connectChild('connected', {
              connection: connection(world, world.accounts, world.chains[0] ?? ''),
            }),
          ]
        : [connectChild(behaviour === 'reject' ? 'rejected' : 'failed', { error })]
    case 'sign':
      return behaviour === 'approve'
        ? [{ type: 'xstate.done.actor.sign', output: { signature: '0x', verification: null } }]
        : [signChild(behaviour === 'reject' ? 'rejected' : 'failed', error)]
    case 'proposal':
      if (behaviour === 'error') return null
      return behaviour === 'approve'
        ? [pairingChild(true, { connection: pairedConnection(world) })]
        : [pairingDone('rejected', rejected)]
    case 'link':
    case 'linkSign':
      // The phone posts its callback (for a signature, after connecting a renewed session when
      // one is needed); the session poll reports it: connected again, or the child ends (the
      // backend records a failure's code as a `failed` session).
      if (behaviour === 'approve')
        return [linkConnected(world, asked === 'linkSign' ? LINK_SIGNATURE : null)]
      return [
        behaviour === 'reject' ? linkDone('rejected', rejected) : linkDone('failed', sessionFailed),
      ]
    case 'relaySign':
      return [
        pairingChild(true, {
          connection: pairedConnection(world),
          lastRequest:
            behaviour === 'approve' ? relayAnswer('answered', null) : relayAnswer('failed', error),
        }),
      ]
  }
}

/** Whether the user can connect the phone wallet over its universal link now. */
function canConnectPhone(snapshot: ClientSnapshot): boolean {
  const v = view(snapshot)
  return v.canConnect && v.connectionKind === 'universal-link'
}

/** The wallet's current connection in the snapshot (desktop), else null. */
function current(snapshot: ClientSnapshot) {
  const v = view(snapshot)
  return v.isConnected && v.connectionKind === 'wallet' ? v : null
}

const rotate = <T>(list: readonly T[], from: T | null): T[] => {
  const at = from === null ? 0 : Math.max(0, list.indexOf(from))
  return [...list.slice(at + 1), ...list.slice(0, at + 1)]
}

const DESKTOP: readonly ClientFlow[] = ['desktop']
const PAIRING: readonly ClientFlow[] = ['pairing']
const ALL: readonly ClientFlow[] = ['desktop', 'pairing']
const LINK: readonly ClientFlow[] = ['universalLink']
/** The steps every flow has: the wallet's answer, cancel, disconnect. */
const EVERY: readonly ClientFlow[] = ['desktop', 'pairing', 'universalLink']

/** The reads a backend fault step fails, and how. */
const FAULTS = [
  { at: 'config', faults: ['down', 'status503', 'garbage'] },
  { at: 'balance', faults: ['down', 'status503', 'garbage'] },
] as const satisfies ReadonlyArray<{ at: FaultStep['at']; faults: readonly BackendFault[] }>
const FAULT_READS = {
  config: 'GET /config',
  balance: 'GET /balances',
  relaySocket: 'the relay',
  sessions: 'POST /sessions',
}
const FAULT_WORDS: Partial<Record<BackendFault, string>> = {
  down: 'fails: the backend is down',
  status503: 'answers 503',
  garbage: 'answers a garbage body',
}

/** What `resume()` raises for a stored desktop connection: `RECONNECT`, the connector loaded. */
const reconnectEvents = (world: ClientPathWorld): AnyEventObject[] => [
  {
    type: 'RECONNECT',
    walletId: world.walletId,
    namespace: world.namespace,
    connectorId: world.walletId,
  },
  loaded(world),
]

/** A stand-in for the link the Client opens (its value is fresh per flow; the view shows one). */
const PHONE_LINK = 'https://wallet.scope-connect.test/ul/v1/connect'

/** The dApp as `pair()` presents it in the paths. */
const PAIR_METADATA = { name: 'Generated paths', url: 'https://dapp.test' }

/**
 * The steps a transaction awaiting its wallet leaves room for: its answer, cancel, its timeout, a
 * reload. Its chart runs beside the root's, so a flow started meanwhile would leave it waiting
 * where the root's chart no longer says (the paths let it settle first).
 */
const DURING_TRANSACTION = new Set([
  'wallet.approve',
  'wallet.reject',
  'wallet.error',
  'user.cancel',
  'time.transaction',
  'reload',
  'reload.walletLocked',
])

/**
 * The table: one row per kind of step (user actions, the wallet's answers and acts, a reload).
 * Named timeouts come from the chart itself (`pendingTimeouts`).
 */
export const STEP_RULES: readonly StepRule[] = /* @__PURE__ */ createStepRules()

function createStepRules(): StepRule[] {
  return tableRows().map((rule) =>
    DURING_TRANSACTION.has(rule.id)
      ? rule
      : {
          ...rule,
          at: (snapshot, world) =>
            snapshot.context.pending === 'transaction' ? null : rule.at(snapshot, world),
        },
  )
}

function tableRows(): StepRule[] {
  return [
    {
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
    },
    {
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
    },
    {
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
                      [world.namespace]: { chains: [world.chains[0]], methods: ['personal_sign'] },
                    },
                    metadata: PAIR_METADATA,
                    proposalExpiresAt: 1,
                    startedAt: 0,
                  },
                },
              ],
            },
    },
    {
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
    },
    {
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
    },
    {
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
          : {
              step,
              events: [SIGN_MESSAGE],
            }
      },
    },
    {
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
                  ? [
                      { type: 'CANCEL' },
                      { type: 'TRANSACTION.FAILED', flow: snapshot.context.flow, error: aborted },
                    ]
                  : [{ type: 'CANCEL' }],
            }
          : null,
    },
    ...(['known', 'addable'] as const).map(
      (which): StepRule => ({
        id: `user.switchChain.${which}`,
        flows: DESKTOP,
        at: (snapshot, world) => {
          const now = current(snapshot)
          if (now === null || !now.canSign) return null
          const chainId =
            which === 'known' ? nextChain(world.chains, now.chainId) : world.addableChain
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
    ),
    {
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
                  chainId: now.chainId,
                  from: now.address,
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
    },
    {
      // The transaction's chart bounds the wallet's answer with its own `walletAnswerMs`, which
      // the paths' Client sets to the root's (`PATH_TIMEOUTS`).
      id: 'time.transaction',
      flows: DESKTOP,
      at: (snapshot) =>
        snapshot.context.pending === 'transaction'
          ? {
              step: {
                kind: 'time',
                timeout: 'walletAnswerMs',
                description: 'nobody answers: walletAnswerMs passes (the transaction)',
              },
              events: [
                {
                  type: 'TRANSACTION.FAILED',
                  flow: snapshot.context.flow,
                  error: timedOut,
                },
              ],
            }
          : null,
    },
    {
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
          : { step, events: [{ type: 'DISCONNECT' }, connectChild('idle', {})] }
      },
    },
    ...(['approve', 'reject', 'error'] as const).map(
      (behaviour): StepRule => ({
        id: `wallet.${behaviour}`,
        flows: EVERY,
        at: (snapshot, world) => {
          const asked = prompt(snapshot)
          const events = asked === null ? null : answerEvents(asked, behaviour, world, snapshot)
          if (events === null) return null
          const verb = { approve: 'approves', reject: 'rejects', error: 'fails' }[behaviour]
          return { step: { kind: 'wallet', behaviour, description: `the wallet ${verb}` }, events }
        },
      }),
    ),
    ...(['changeAccount', 'changeChain', 'lock'] as const).map(
      (behaviour): StepRule => ({
        id: `wallet.${behaviour}`,
        flows: DESKTOP,
        at: (snapshot, world) => {
          const now = current(snapshot)
          if (now === null) return null
          // A switch in flight is the wallet's own chain change; it acts again once it settled.
          if (now.status === 'switchingChain' && behaviour !== 'lock') return null
          const description = {
            changeAccount: 'the wallet switches account',
            changeChain: 'the wallet switches chain',
            lock: 'the wallet locks',
          }[behaviour]
          const step: ClientStep = { kind: 'wallet', behaviour, description }
          if (behaviour === 'lock') return { step, events: [connectChild('idle', {})] }
          const accounts =
            behaviour === 'changeAccount' ? rotate(world.accounts, now.address) : now.accounts
          const chainId =
            behaviour === 'changeChain'
              ? (rotate(world.chains, now.chainId)[0] ?? '')
              : (now.chainId ?? '')
          return {
            step,
            events: [
              connectChild('connected', { connection: connection(world, accounts, chainId) }),
            ],
          }
        },
      }),
    ),
    ...FAULTS.flatMap(({ at, faults }) =>
      faults.map(
        (fault): StepRule => ({
          id: `fault.${at}.${fault}`,
          flows: DESKTOP,
          at: (snapshot) => {
            const now = current(snapshot)
            // Once per connection, where nothing else is going on (the view holds no error).
            if (now === null || now.isBusy || now.error !== null) return null
            return {
              step: {
                kind: 'fault',
                fault,
                at,
                description: `${FAULT_READS[at]} ${FAULT_WORDS[fault]}; read again, it succeeds`,
              },
              events: [],
            }
          },
        }),
      ),
    ),
    ...(['down', 'status503'] as const).map(
      (fault): StepRule => ({
        id: `fault.sessions.${fault}`,
        flows: LINK,
        at: (snapshot) => {
          if (!canConnectPhone(snapshot)) return null
          return {
            step: {
              kind: 'fault',
              fault,
              at: 'sessions',
              description: `connects, and ${FAULT_READS.sessions} ${FAULT_WORDS[fault]} (the flow fails)`,
            },
            // The child fails to create the session: the wallet is never opened.
            events: [{ type: 'CONNECT' }, linkDone('failed', backendError)],
            shows: ['connecting', 'disconnected'],
          }
        },
      }),
    ),
    {
      id: 'fault.relaySocket.drop',
      flows: PAIRING,
      at: (snapshot) =>
        view(snapshot).status === 'pairing'
          ? {
              step: {
                kind: 'fault',
                fault: 'drop',
                at: 'relaySocket',
                description: 'the relay drops the socket (the relay client opens a new one)',
              },
              events: [],
            }
          : null,
    },
    {
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
            connectChild('connected', {
              connection: connection(world, now.accounts, now.chainId ?? ''),
            }),
          ],
        }
      },
    },
    {
      // The universal-link store keeps the flow: `resume()` restores it, still awaiting the wallet.
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
    },
    {
      // A connected link flow keeps its record until disconnect(): `resume()` restores it as it
      // stood, connected or awaiting a signature.
      id: 'reload.linkConnected',
      flows: LINK,
      at: (snapshot, world) => {
        const v = view(snapshot)
        if (v.connectionKind !== 'universal-link' || !v.isConnected) return null
        const connected = [
          ...selectPhone(world, true),
          { type: 'WALLET_OPENED', url: PHONE_LINK },
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
    },
    {
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
              events: [...reconnectEvents(world), connectChild('failed', { error: locked })],
            },
    },
  ]
}

/** The named timeouts the chart waits for in `snapshot`, with the event each one raises. */
export function pendingTimeouts(
  snapshot: ClientSnapshot,
): Array<{ timeout: keyof ClientTimeouts; event: AnyEventObject }> {
  const nodes = (snapshot as unknown as { _nodes: Array<{ after: unknown[] }> })._nodes
  return nodes.flatMap((node) =>
    (node.after as Array<{ delay: unknown; eventType: string }>).flatMap((transition) =>
      typeof transition.delay === 'string' && transition.delay in snapshot.context.timeouts
        ? [
            {
              timeout: transition.delay as keyof ClientTimeouts,
              event: { type: transition.eventType },
            },
          ]
        : [],
    ),
  )
}
