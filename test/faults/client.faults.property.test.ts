import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { JUNK_WALLET_ANSWER } from '../../src/testing/doubles/answers'
import { useFaultClock } from './support/clock'
import { caseArbitrary, profile, runSequence, World } from './support/harness'

// Item 2 of issue 15: random sequences of the Client's public calls against scripted wallets and a
// backend and relay that fail in every documented way; after every step the invariants of
// support/harness.ts (`World.check`) hold, and at the end every call has settled and no secret
// reached the inspector. Seeded: FAULTS_SEED replays a run, FAULTS_RUNS sets its length.

const seed = Number(process.env.FAULTS_SEED ?? 20261126)
const numRuns = Number(process.env.FAULTS_RUNS ?? 2_000)

useFaultClock()
afterAll(() => {
  if (process.env.FAULTS_PROFILE)
    console.log(
      [...profile]
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${Math.round(v)}${k.startsWith('= ') ? '' : 'ms'}`)
        .join('\n'),
    )
})

describe('fault sequences against the Client', () => {
  it(`behavior: ${numRuns} random sequences keep every invariant (seed ${seed})`, {
    timeout: 0,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(caseArbitrary, async ({ steps, inspect }) => {
        await runSequence(steps, inspect)
      }),
      { seed, numRuns, verbose: 1, endOnFailure: process.env.FAULTS_SHRINK === '0' },
    )
  })

  it('behavior: the secret check bites — a session token planted in an inspection event is seen', async () => {
    const world = new World(true)
    try {
      await world.step({ call: 'select:partner', answer: 'approve', fault: 'ok', think: 5 }, 0)
      await world.step({ call: 'connect', answer: 'approve', fault: 'ok', think: 600 }, 1)
      const [token] = world.backend.secrets
      world.events.push({ type: '@xstate.event', event: { type: 'LEAK', token } } as never)
      await expect(world.finish()).rejects.toThrow(/no secret in inspection events/)
    } finally {
      world.dispose()
    }
  })

  it('behavior: a garbage wallet answer is refused WALLET_ERROR, and the check bites when junk is accepted', async () => {
    const world = new World(false)
    try {
      await world.step({ call: 'select:metamask', answer: 'approve', fault: 'ok', think: 5 }, 0)
      await world.step({ call: 'connect', answer: 'garbage', fault: 'ok', think: 600 }, 1)
      await world.step({ call: 'connect', answer: 'approve', fault: 'ok', think: 600 }, 2)
      await world.step({ call: 'signMessage', answer: 'garbage', fault: 'ok', think: 600 }, 3)
      await world.step({ call: 'signMessage', answer: 'approve', fault: 'ok', think: 600 }, 4)
      expect(world.tracked.map((t) => t.outcome)).toEqual([
        'value',
        'WALLET_ERROR',
        'value',
        'WALLET_ERROR',
        'value',
      ])
      world.track('#5 signMessage', Promise.resolve(JUNK_WALLET_ANSWER))
      await Promise.resolve()
      expect(() => world.check('#5')).toThrow(/A JUNK WALLET ANSWER ACCEPTED/)
    } finally {
      world.dispose()
    }
  })

  it('behavior: a wrong-typed parameter is refused INVALID_CONFIG in any state, and the next call works', async () => {
    const world = new World(false)
    try {
      const bad = { method: 'sendTransaction', param: { to: '0x1', value: '1000' } } as const
      await world.step({ call: 'badParams', answer: 'approve', fault: 'ok', think: 5, bad }, 0)
      await world.step({ call: 'select:metamask', answer: 'approve', fault: 'ok', think: 5 }, 1)
      await world.step({ call: 'connect', answer: 'approve', fault: 'ok', think: 600 }, 2)
      await world.step(
        {
          call: 'badParams',
          answer: 'approve',
          fault: 'ok',
          think: 5,
          bad: { method: 'signMessage', param: {} },
        },
        3,
      )
      await world.step({ call: 'signMessage', answer: 'approve', fault: 'ok', think: 600 }, 4)
      expect(world.tracked.map((t) => `${t.label}=${t.outcome}`)).toEqual([
        '#0 badParams sendTransaction=value',
        '#1 select:metamask=value',
        '#2 connect=value',
        '#3 badParams signMessage=value',
        '#4 signMessage=value',
      ])
    } finally {
      world.dispose()
    }
  })
})
