import type { DoneActorEvent, SnapshotFrom } from 'xstate'
import type { TransactionMachine } from '../transaction/transaction.machine'
import type { TransactionSummary } from '../transaction/transaction.types'
import { clientSetup, err, failedWith, STILL_ASKED } from './client.setup'

// A spawned child's snapshot and done events are not typed by XState (an invoked one's are): the
// `transaction` child's, typed by its chart.
type TransactionSnapshotEvent = { event: { snapshot: SnapshotFrom<TransactionMachine> } }
type TransactionDoneEvent = { event: DoneActorEvent<TransactionSummary> }

/**
 * Reads and transactions: the root's own transitions, in any state. Config and balance reads are
 * spawned actors, `config.<n>` and `read.<n>`, whose end is their caller's; a transaction is a
 * spawned `transaction` child that runs beside the connection (its receipt needs no wallet).
 */
export const operationsRegion = clientSetup.createStateConfig({
  on: {
    READ_CONFIG: { actions: 'spawnRead' },
    READ_BALANCE: { actions: 'spawnRead' },
    READ_BALANCES: { actions: 'spawnRead' },
    // A read's end, success or failure, is its caller's (the Client settles its promise); a config
    // read's networks are also the project's chains.
    'xstate.done.actor.config.*': { actions: ['storeProjectChains', 'endRead'] },
    'xstate.error.actor.config.*': { actions: 'endRead' },
    'xstate.done.actor.read.*': { actions: 'endRead' },
    'xstate.error.actor.read.*': { actions: 'endRead' },
    // A root restored connected reads the project's chains as a connection's first state does.
    RESUMED: { actions: 'readProjectChains' },
    WALLET_OPENED: { actions: 'storeWalletUrl' },
    // The transaction runs beside the connection (its receipt needs no wallet): a spawned child.
    SEND_TRANSACTION: {
      guard: 'canSendTransaction',
      actions: [
        { type: 'startFlow', params: 'transaction' },
        'stopTransaction',
        'spawnTransaction',
      ],
    },
    // Not while a transaction flow waits for the wallet: replacing its child would lose the hash
    // and leave the flow pending (the Client refuses it first, `WALLET_BUSY`).
    WATCH_TRANSACTION: {
      guard: 'noTransactionPending',
      actions: ['stopTransaction', 'spawnTransaction'],
    },
    // The child reports by snapshot (spawned with `syncSnapshot`), as the invoked children do.
    'xstate.snapshot.transaction': {
      actions: {
        type: 'forward',
        params: ({ event: { snapshot } }: TransactionSnapshotEvent) => ({
          type: 'TRANSACTION.CHANGED' as const,
          flow: snapshot.context.flow,
          hash: snapshot.context.hash,
        }),
      },
    },
    'TRANSACTION.CHANGED': {
      guard: 'transactionSent',
      actions: {
        type: 'settle',
        params: ({ event }) => ({ error: null, signature: event.hash }),
      },
    },
    // How it ended is its final state's output: no hash, the wallet did not send it.
    'xstate.done.actor.transaction': {
      guard: {
        type: 'transactionFailed',
        params: ({ event }: TransactionDoneEvent) => event.output,
      },
      actions: {
        type: 'settle',
        // Each final state it reaches with no hash keeps why (rejected, failed, timed out, aborted).
        params: ({ event }: TransactionDoneEvent) => ({ error: event.output.error }),
      },
    },
    'xstate.error.actor.transaction': {
      guard: { type: 'isPending', params: 'transaction' },
      actions: { type: 'settle', params: failedWith('WALLET_ERROR') },
    },
    // Given up, not stopped: the child keeps waiting for the wallet, whose hash is never lost.
    CANCEL: {
      guard: { type: 'isPending', params: 'transaction' },
      actions: { type: 'settle', params: { error: err('ABORTED', `Cancelled.${STILL_ASKED}`) } },
    },
  },
})
