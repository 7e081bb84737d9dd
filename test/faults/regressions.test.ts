import { describe, it } from 'vitest'
import { useFaultClock } from './support/clock'
import { runSequence, type Step } from './support/harness'

// Every shrunk counterexample the fault sequences found (client.faults.property.test.ts), replayed
// exactly: the same steps in a fresh world, the same invariants after every step. Each test is
// named after what it found; FINDINGS.md has the seed and the run that found it.

useFaultClock()

const _step = (
  call: Step['call'],
  fault: Step['fault'] = 'ok',
  answer: Step['answer'] = 'approve',
  think = 0,
): Step => ({
  call,
  answer,
  fault,
  think,
})

describe('regressions found by the fault sequences', () => {
  it('error: a getBalance answered 422 stops the root actor (every later call fails)', async () => {
    await runSequence([
      { call: 'getBalance', answer: 'approve', fault: 'status422', think: 0 },
      { call: 'select:metamask', answer: 'approve', fault: 'ok', think: 0 },
    ])
  })

  it('error: a settled read stays a child of the root (reads pile up)', async () => {
    await runSequence([
      { call: 'getBalance', answer: 'approve', fault: 'ok', think: 0 },
      { call: 'select:rabby', answer: 'approve', fault: 'ok', think: 0 },
    ])
  })

  // Built from the known bug (issue 15), not shrunk: the read child above hides it from the run.
  it('error: a bigint balance lands in the persisted universal-link record (JSON.stringify throws)', async () => {
    await runSequence([
      { call: 'select:solflare', answer: 'approve', fault: 'ok', think: 5 },
      { call: 'connect', answer: 'approve', fault: 'ok', think: 600 },
      { call: 'getBalance', answer: 'approve', fault: 'ok', think: 5 },
    ])
  })
})
