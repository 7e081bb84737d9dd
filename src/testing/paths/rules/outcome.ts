import type { ClientEvent, LoadedConnector } from '../../../../machines/client/client.types'
import type { ClientSnapshot, ClientStatus } from '../../../../machines/client/client.view'
import type { ErrorData } from '../../../../machines/shared/error-data'
import type { TransactionSummary } from '../../../../machines/transaction/transaction.types'
import type { ClientFlow, ClientStep } from '../types'
import type { ClientPathWorld } from '../world'

/**
 * What one of the root's invoked children answers when its work ends (the wallet answered, the
 * connector loaded, the phone or the relay ended the flow): the child, and its output or error.
 * The generator hands it to the chart as the child's end; a rule names the answer, never an
 * event of XState's own.
 */
export type ChildAnswer =
  /** The connector loaded (`SELECT_WALLET`, `RECONNECT`). */
  | { child: 'loadConnector'; output: LoadedConnector }
  /** The wallet switched chains, or refused to. */
  | { child: 'switchChain'; output: { chainId: string } }
  | { child: 'switchChain'; error: ErrorData }
  /** The wallet signed; or the signature failed (`rejected`, `failed`: the sign child waits there). */
  | { child: 'sign'; output: { signature: string; verification: null } }
  | { child: 'sign'; status: 'rejected' | 'failed'; error: ErrorData }
  /** The paired session ended: the proposal rejected, the session deleted. */
  | {
      child: 'pairing'
      output: { status: 'rejected' | 'disconnected'; session: null; error: ErrorData | null }
    }
  /** The universal-link flow ended: the phone rejected or failed, or no session could be made. */
  | { child: 'universalLink'; output: { status: 'rejected' | 'failed'; error: ErrorData } }
  /** The transaction ended before the wallet sent it: rejected, failed, timed out or cancelled. */
  | { child: 'transaction'; output: TransactionSummary }

/**
 * One thing that reaches the root during a step: an event of the chart's own (`ClientEvent`: what
 * the user's call sends, what a child reports as it changes), or a child's answer at its end.
 */
export type RuleEvent = ClientEvent | ChildAnswer

/**
 * What a rule makes of a root snapshot: the step, and what it causes in the chart (the user's call,
 * then what the Client's actors report at once: a loaded connector, a child's change or end); with
 * `restart` for a reload: a fresh root, then what `resume()` causes in it.
 */
export interface RuleOutcome {
  step: ClientStep
  events: readonly RuleEvent[]
  /** A reload: the events play on a fresh root. */
  restart?: true
  /**
   * The statuses the Client shows during the step where the chart's events cannot tell them: the
   * universal-link child's own stages (creating the session, then awaiting the wallet), a flow
   * `resume()` restores whole. Default: the statuses the events pass through.
   */
  shows?: readonly ClientStatus[]
}

/**
 * One row of the table that maps what a user, a wallet, the backend or time does to what reaches
 * the chart. `at` answers null where the step cannot happen. Rules decide from the public view
 * (statuses, flags) and the machine's own `after` transitions, never from state names: a rule
 * keeps working when the chart's states change. Add a row to add a kind of step.
 */
export interface StepRule {
  /** Unique id, e.g. `user.connect`. */
  id: string
  flows: readonly ClientFlow[]
  at(snapshot: ClientSnapshot, world: ClientPathWorld): RuleOutcome | null
}

/** Whether `event` is a child's answer (else an event of the chart's own). */
export const isChildAnswer = (event: RuleEvent): event is ChildAnswer => 'child' in event
