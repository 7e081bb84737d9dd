import type { AnyEventObject } from 'xstate'
import type { ClientTimeouts } from '../../../machines/client/client.types'
import { type ClientSnapshot, toClientView } from '../../../machines/client/client.view'
import type { ErrorData } from '../../../machines/shared/error-data'
import type { ClientFlow, ClientStep } from './types'
import type { ClientPathWorld } from './world'

/**
 * What a rule makes of a root snapshot: the step, and the root events it causes in the chart (the
 * user's call, then what the Client's actors report at once: a loaded connector, a child's
 * snapshot); or `restart` for a reload that leaves nothing to restore.
 */
export type RuleOutcome =
  | { step: ClientStep; events: readonly AnyEventObject[] }
  | { step: ClientStep; restart: true }

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

/** The connector `loadConnector` reports for the world's wallet (a custom connector). */
const loaded = (world: ClientPathWorld) => ({
  type: 'xstate.done.actor.loadConnector',
  output: { kind: 'wallet', connectorId: world.walletId, walletId: world.walletId, chainId: null },
})

const view = toClientView

/** The desktop wallet shows a prompt: a connection request, or a signature request. */
function prompt(snapshot: ClientSnapshot): 'connect' | 'sign' | null {
  const v = view(snapshot)
  if (v.connectorKind !== 'wallet') return null
  if (v.status === 'connecting') return 'connect'
  if (v.status === 'signing') return 'sign'
  return null
}

/** The wallet's current connection in the snapshot (desktop), else null. */
function current(snapshot: ClientSnapshot) {
  const v = view(snapshot)
  return v.isConnected && v.connectorKind === 'wallet' ? v : null
}

const rotate = <T>(list: readonly T[], from: T | null): T[] => {
  const at = from === null ? 0 : Math.max(0, list.indexOf(from))
  return [...list.slice(at + 1), ...list.slice(0, at + 1)]
}

const DESKTOP: readonly ClientFlow[] = ['desktop']

/**
 * The table: one row per kind of step (user actions, the wallet's answers and acts, a reload).
 * Named timeouts come from the chart itself (`pendingTimeouts`).
 */
export const STEP_RULES: readonly StepRule[] = /* @__PURE__ */ createStepRules()

function createStepRules(): StepRule[] {
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
      id: 'user.signMessage',
      flows: DESKTOP,
      at: (snapshot) =>
        view(snapshot).canSign
          ? {
              step: {
                kind: 'user',
                type: 'signMessage',
                description: 'signs a message',
                run: (client) => client.signMessage(MESSAGE),
              },
              events: [
                {
                  type: 'SIGN',
                  request: { method: 'personal_sign', params: [MESSAGE] },
                  link: { method: 'signMessage', payload: null },
                },
              ],
            }
          : null,
    },
    {
      id: 'user.cancel',
      flows: DESKTOP,
      at: (snapshot) =>
        view(snapshot).canCancel
          ? {
              step: {
                kind: 'user',
                type: 'cancel',
                description: 'cancels',
                run: async (client) => client.cancel(),
              },
              events: [{ type: 'CANCEL' }],
            }
          : null,
    },
    {
      id: 'user.disconnect',
      flows: DESKTOP,
      at: (snapshot) => {
        if (!view(snapshot).isConnected) return null
        return {
          step: {
            kind: 'user',
            type: 'disconnect',
            description: 'disconnects',
            run: (client) => client.disconnect(),
          },
          // The wallet forgets the permission at once (no prompt): the connect child is idle again.
          events: [{ type: 'DISCONNECT' }, connectChild('idle', {})],
        }
      },
    },
    ...(['approve', 'reject', 'error'] as const).map(
      (behaviour): StepRule => ({
        id: `wallet.${behaviour}`,
        flows: DESKTOP,
        at: (snapshot, world) => {
          const asked = prompt(snapshot)
          if (asked === null) return null
          const step: ClientStep = {
            kind: 'wallet',
            behaviour,
            description: `the wallet ${behaviour === 'approve' ? 'approves' : behaviour === 'reject' ? 'rejects' : 'fails'}`,
          }
          if (asked === 'connect') {
            const events =
              behaviour === 'approve'
                ? [
                    connectChild('connected', {
                      connection: connection(world, world.accounts, world.chains[0] ?? ''),
                    }),
                  ]
                : behaviour === 'reject'
                  ? [connectChild('rejected', { error: rejected })]
                  : [connectChild('failed', { error: failed })]
            return { step, events }
          }
          const events =
            behaviour === 'approve'
              ? [
                  {
                    type: 'xstate.done.actor.sign',
                    output: { signature: '0x', verification: null },
                  },
                ]
              : behaviour === 'reject'
                ? [signChild('rejected', rejected)]
                : [signChild('failed', failed)]
          return { step, events }
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
    {
      id: 'reload',
      flows: DESKTOP,
      at: () => ({
        step: { kind: 'reload', description: 'the page reloads' },
        restart: true,
      }),
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
