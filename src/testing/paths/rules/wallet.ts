import type { ClientSnapshot } from '../../../../machines/client/client.view'
import type { ClientStep } from '../types'
import type { ClientPathWorld } from '../world'
import type { RuleEvent, StepRule } from './outcome'
import {
  connection,
  connectionChanged,
  current,
  DESKTOP,
  EVERY,
  failed,
  LINK_SIGNATURE,
  linkConnected,
  linkDone,
  pairingChanged,
  pairingDone,
  rejected,
  rotate,
  sessionFailed,
  transactionUnsent,
  view,
} from './shared'

// The wallet's steps: its answer to the prompt it shows, and what it does on its own.

/** The hash a path's transaction gets (the chart keeps it as the flow's outcome only). */
const TX_HASH = '0xabababababababababababababababababababababababababababababababab'

/** The chain a running `switchChain` flow asked for: the input of the invoked actor's snapshot. */
function switchTarget(snapshot: ClientSnapshot): string {
  const child = snapshot.children.switchChain as
    | { getSnapshot(): { input?: { chainId?: string } } }
    | undefined
  return child?.getSnapshot().input?.chainId ?? ''
}

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

/** What the wallet's answer to `asked` causes in the chart (null: that answer cannot happen there). */
function answerEvents(
  asked: Prompt,
  behaviour: 'approve' | 'reject' | 'error',
  world: ClientPathWorld,
  snapshot: ClientSnapshot,
): RuleEvent[] | null {
  const error = behaviour === 'reject' ? rejected : failed
  switch (asked) {
    case 'switch': {
      if (behaviour !== 'approve') return [{ child: 'switchChain', error }]
      // The wallet switched (or added the chain and switched): the connection follows.
      const chainId = switchTarget(snapshot)
      return [
        { child: 'switchChain', output: { chainId } },
        connectionChanged('connected', {
          connection: connection(world, view(snapshot).accounts, chainId),
        }),
      ]
    }
    case 'transaction': {
      const flow = snapshot.context.flow
      return behaviour === 'approve'
        ? [{ type: 'TRANSACTION.CHANGED', flow, hash: TX_HASH }]
        : [transactionUnsent(behaviour === 'reject' ? 'rejected' : 'failed', error)]
    }
    case 'connect':
      return behaviour === 'approve'
        ? [
            connectionChanged('connected', {
              connection: connection(world, world.accounts, world.chains[0] ?? ''),
            }),
          ]
        : [connectionChanged(behaviour === 'reject' ? 'rejected' : 'failed', { error })]
    case 'sign':
      return behaviour === 'approve'
        ? [{ child: 'sign', output: { signature: '0x', verification: null } }]
        : [{ child: 'sign', status: behaviour === 'reject' ? 'rejected' : 'failed', error }]
    case 'proposal':
      if (behaviour === 'error') return null
      return behaviour === 'approve'
        ? [pairingChanged(world, null)]
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
        pairingChanged(
          world,
          behaviour === 'approve'
            ? { status: 'answered', error: null }
            : { status: 'failed', error },
        ),
      ]
  }
}

/** The wallet answers the prompt it shows: approves, rejects, fails. */
export const walletAnswerRules = /* @__PURE__ */ (['approve', 'reject', 'error'] as const).map(
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
)

/** The desktop wallet acts on its own: another account, another chain, locked. */
export const walletActRules = /* @__PURE__ */ (
  ['changeAccount', 'changeChain', 'lock'] as const
).map(
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
      if (behaviour === 'lock') return { step, events: [connectionChanged('idle')] }
      const accounts =
        behaviour === 'changeAccount' ? rotate(world.accounts, now.address) : now.accounts
      const chainId =
        behaviour === 'changeChain'
          ? (rotate(world.chains, now.chainId)[0] ?? '')
          : (now.chainId ?? '')
      return {
        step,
        events: [
          connectionChanged('connected', { connection: connection(world, accounts, chainId) }),
        ],
      }
    },
  }),
)
