import { describe, expect, it } from 'vitest'
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate'
import { transactionMachine } from '../../machines/transaction/transaction.machine'
import type {
  TransactionContext,
  TransactionSummary,
} from '../../machines/transaction/transaction.types'
import { afterEvents, coverageRow, explore } from './support/coverage'

const HASH = `0x${'ab'.repeat(32)}`
const request = {
  chainId: 'eip155:1',
  from: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
  calls: [{ to: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', value: '0x1', data: null }],
  fields: {},
  transaction: null,
}
const read = (status: string, extra: Record<string, unknown> = {}) => ({
  type: 'xstate.done.actor.readStatus',
  output: {
    status,
    blockNumber: null,
    confirmations: 0,
    replacedBy: null,
    revertReason: null,
    etag: '"e"',
    ...extra,
  },
})

const events: AnyEventObject[] = [
  { type: 'CANCEL' },
  { type: 'xstate.done.actor.requestTransaction', output: HASH },
  { type: 'xstate.error.actor.requestTransaction', error: { code: 4001, message: 'rejected' } },
  { type: 'xstate.error.actor.requestTransaction', error: { code: -32000, message: 'funds' } },
  read('unknown'),
  read('pending'),
  read('confirmed', { blockNumber: '5', confirmations: 1 }),
  read('confirmed', { blockNumber: '5', confirmations: 2 }),
  read('reverted', { blockNumber: '5', confirmations: 1, revertReason: 'nope' }),
  read('unknown', { replacedBy: `0x${'cd'.repeat(32)}` }),
  { type: 'xstate.error.actor.readStatus', error: { code: 'RPC_ERROR', message: 'HTTP 502' } },
  ...afterEvents(transactionMachine),
]

/** Failures are counted up to the cap (so the back-off's exit is reachable), timestamps left out. */
const serialize = (s: AnyMachineSnapshot) => {
  const context = s.context as TransactionContext
  return JSON.stringify({
    value: s.value,
    status: s.status,
    seen: context.seenPending,
    failures: context.failures,
    confirmations: context.read?.confirmations ?? 0,
    error: context.error?.code ?? null,
    history: Object.keys((s as unknown as { historyValue?: object }).historyValue ?? {}).length,
  })
}

describe('transaction model', () => {
  const exploration = explore(
    transactionMachine,
    [
      { name: 'new, 2 confirmations', input: { request, confirmations: 2 } },
      {
        name: 'resumed',
        input: {
          request: null,
          submitted: {
            chainId: 'eip155:1',
            hash: HASH,
            deadlines: { wallet: null, receipt: null, notSeen: null },
          },
        },
      },
    ],
    () => events,
    serialize,
    20_000,
  )
  const row = coverageRow('transaction', exploration)

  it('reaches 100 % of states and transitions', () => {
    // The history pseudo-state is never active itself: the back-off's transition into it counts.
    expect(row.missingStates).toEqual(['transaction.watching.previous'])
    expect(row.missingTransitions).toEqual([])
  })

  it('holds its invariants on every path: final states carry their facts, context stays JSON', () => {
    for (const { path } of exploration.paths) {
      const snapshot = path.state
      const context = snapshot.context as TransactionContext
      expect(JSON.parse(JSON.stringify(context))).toEqual(context)
      const outcome = (snapshot.output as TransactionSummary | undefined)?.outcome ?? null
      if (snapshot.status === 'active') expect(outcome).toBeNull()
      else expect(outcome).toBe(String(snapshot.value))
      if (outcome === 'confirmed') {
        expect(context.read?.confirmations).toBeGreaterThanOrEqual(context.confirmationsWanted)
        expect(context.error).toBeNull()
      }
      if (outcome === 'reverted') expect(context.error?.code).toBe('TRANSACTION_REVERTED')
      if (outcome === 'replaced') {
        expect(context.read?.replacedBy).toMatch(/^0x/)
        expect(context.error?.code).toBe('TRANSACTION_REPLACED')
      }
      if (outcome === 'dropped') expect(context.error?.code).toBe('TRANSACTION_DROPPED')
      if (outcome === 'rejected') expect(context.error?.code).toBe('USER_REJECTED')
      if (outcome === 'aborted') {
        expect(context.error?.code).toBe('ABORTED')
        expect(context.hash).toBeNull()
      }
      // Watching always has a hash; the wallet is only asked before one exists.
      if (snapshot.matches('watching') || snapshot.matches('backoff'))
        expect(context.hash).toBe(HASH)
      if (snapshot.matches('awaitingWallet')) expect(context.hash).toBeNull()
    }
  })
})
