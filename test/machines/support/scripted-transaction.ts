import { createActor, SimulatedClock } from 'xstate'
import { provideTransaction } from '../../../machines/transaction/transaction.actors'
import type {
  ReadStatusInput,
  StatusRead,
  TransactionInput,
  TransactionRequestData,
} from '../../../machines/transaction/transaction.types'

interface Deferred<T> {
  resolve(value: T): void
  reject(error: unknown): void
}

export const HASH = `0x${'12'.repeat(32)}`
export const REPLACEMENT = `0x${'34'.repeat(32)}`

export const REQUEST: TransactionRequestData = {
  chainId: 'eip155:31337',
  from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
  calls: [{ to: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', value: '0x1', data: null }],
  fields: {},
  transaction: null,
}

export const read = (fields: Partial<StatusRead>): StatusRead => ({
  status: 'unknown',
  blockNumber: null,
  confirmations: 0,
  replacedBy: null,
  revertReason: null,
  etag: '"t"',
  ...fields,
})

/**
 * The transaction machine with scripted doubles of its two actors (the wallet's answer, the
 * backend's reads) on a simulated clock: the test answers each call when it wants.
 */
export function scriptedTransaction(input: Partial<TransactionInput> = {}) {
  const clock = new SimulatedClock()
  clock.set(1_000_000)
  const sends: Deferred<string>[] = []
  const reads: (Deferred<StatusRead> & { input: ReadStatusInput; signal: AbortSignal })[] = []
  const machine = provideTransaction({
    now: () => clock.now(),
    send: () => new Promise<string>((resolve, reject) => sends.push({ resolve, reject })),
    readStatus: (readInput, signal) =>
      new Promise<StatusRead>((resolve, reject) =>
        reads.push({ resolve, reject, input: readInput, signal }),
      ),
  })
  const actor = createActor(machine, { clock, input: { request: REQUEST, ...input } })
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0))
  return {
    actor,
    clock,
    machine,
    sends,
    reads,
    /** Lets the actors' promises settle (their results are delivered in microtasks). */
    settle,
    async walletAnswers(hash = HASH) {
      sends.at(-1)!.resolve(hash)
      await settle()
    },
    async backendAnswers(fields: Partial<StatusRead>) {
      reads.at(-1)!.resolve(read(fields))
      await settle()
    },
    async backendFails(error: unknown = { code: 'RPC_ERROR', message: 'HTTP 502 UPSTREAM_ERROR' }) {
      reads.at(-1)!.reject(error)
      await settle()
    },
    async advance(ms: number) {
      clock.increment(ms)
      await settle()
    },
  }
}
