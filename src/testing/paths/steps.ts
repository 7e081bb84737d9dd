import { getStateNodes } from 'xstate'
import type { ClientTimeouts } from '../../../machines/client/client.types'
import type { ClientSnapshot } from '../../../machines/client/client.view'
import { faultRules, transactionTimeout } from './rules/faults'
import type { StepRule } from './rules/outcome'
import { reloadRules } from './rules/reload'
import { userRules } from './rules/user'
import { walletActRules, walletAnswerRules } from './rules/wallet'

export type { ChildAnswer, RuleEvent, RuleOutcome, StepRule } from './rules/outcome'
export { LINK_POLL_MS } from './rules/shared'

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
 * The table: one row per kind of step (user actions, the wallet's answers and acts, faults, a
 * reload). Named timeouts come from the chart itself (`pendingTimeouts`).
 */
export const STEP_RULES: readonly StepRule[] = /* @__PURE__ */ createStepRules()

function createStepRules(): StepRule[] {
  const u = userRules
  const rows: StepRule[] = [
    u.selectWallet,
    u.connect,
    u.pair,
    u.selectPhoneWallet,
    u.connectPhone,
    u.signMessage,
    u.cancel,
    ...u.switchChain,
    u.sendTransaction,
    transactionTimeout,
    u.disconnect,
    ...walletAnswerRules,
    ...walletActRules,
    ...faultRules,
    ...reloadRules,
  ]
  return rows.map((rule) =>
    DURING_TRANSACTION.has(rule.id)
      ? rule
      : {
          ...rule,
          at: (snapshot, world) =>
            snapshot.context.pending === 'transaction' ? null : rule.at(snapshot, world),
        },
  )
}

/**
 * The named timeouts the chart waits for in `snapshot` (the `after` transitions of its active
 * states whose delay is one of `context.timeouts`), with the type of the event each one raises.
 */
export function pendingTimeouts(
  snapshot: ClientSnapshot,
): Array<{ timeout: keyof ClientTimeouts; eventType: string }> {
  const timeouts = snapshot.context.timeouts
  return getStateNodes(snapshot.machine.root, snapshot.value).flatMap((node) =>
    node.after.flatMap((transition) =>
      typeof transition.delay === 'string' && transition.delay in timeouts
        ? [{ timeout: transition.delay as keyof ClientTimeouts, eventType: transition.eventType }]
        : [],
    ),
  )
}
