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
})
