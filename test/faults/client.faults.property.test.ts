import fc from 'fast-check'
import { afterAll, beforeAll, describe, it, vi } from 'vitest'
import { runSequence, sequenceArbitrary } from './support/harness'

// Item 2 of issue 15: random sequences of the Client's public calls against scripted wallets and a
// backend and relay that fail in every documented way; after every step the invariants of
// support/harness.ts (`World.check`) hold, and at the end every call has settled and no secret
// reached the inspector. Seeded: FAULTS_SEED replays a run, FAULTS_RUNS sets its length.

const seed = Number(process.env.FAULTS_SEED ?? 20261126)
const numRuns = Number(process.env.FAULTS_RUNS ?? 2_000)

beforeAll(async () => {
  // The Client's on-demand chunks load once, on the real clock; later imports are cached.
  await Promise.all([
    import('../../src/client/lazy/readers'),
    import('../../src/client/lazy/wallet'),
    import('../../src/client/lazy/pairing'),
    import('../../src/client/lazy/inspector'),
    import('../../src/universal-link/lazy/connector'),
  ])
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] })
})
afterAll(() => {
  vi.useRealTimers()
})

describe('fault sequences against the Client', () => {
  it(`behavior: ${numRuns} random sequences keep every invariant (seed ${seed})`, { timeout: 0 }, async () => {
    await fc.assert(
      fc.asyncProperty(sequenceArbitrary, async (steps) => {
        await runSequence(steps)
      }),
      { seed, numRuns, verbose: 1, endOnFailure: process.env.FAULTS_SHRINK === '0' },
    )
  })
})
