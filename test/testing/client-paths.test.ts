import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createClientCoverage,
  getClientPaths,
  preloadClientPaths,
  runClientPath,
} from '../../src/testing'
import { headless, useVirtualTime } from './support/replays'

const paths = getClientPaths()
const coverage = createClientCoverage()
afterAll(() => console.log(coverage.line()))
// The Client's lazy chunks load on real time, once, before the runs on virtual time.
beforeAll(async () => {
  await preloadClientPaths(paths)
}, 30_000)
// Virtual time: a named timeout passes at once, the run's polls advance the fake clock.
const wait = useVirtualTime()

describe('generated paths (desktop, pairing, universal link) on the real Client', () => {
  it('there are paths, each from a fresh page', () => {
    expect(paths.length).toBeGreaterThan(20)
  })
  for (const path of paths)
    it(path.description, async () => {
      await runClientPath(path, headless, { coverage, wait })
    })

  it('has universal-link paths: the phone approves, rejects, fails, never answers, signs, the backend fails the session, the page reloads (awaiting the phone or connected)', () => {
    const link = paths.filter((path) => path.flow === 'universalLink')
    const kinds = link.flatMap((path) => path.steps.map((step) => step.description))
    expect(kinds).toEqual(
      expect.arrayContaining([
        'the wallet approves',
        'the wallet rejects',
        'the wallet fails',
        'connects, and POST /sessions answers 503 (the flow fails)',
        'signs a message',
        'the page reloads (resume() restores the flow awaiting the signature)',
        'nobody answers: walletAnswerMs passes',
        'the page reloads (resume() restores the flow awaiting the wallet)',
        'the page reloads (resume() restores the connected link session)',
      ]),
    )
  })

  it('signs twice over a universal link: the second signature renews the session (two trips to the phone)', async () => {
    // The chart's state after a signature is the one after connecting, so the generator stops
    // there; the path is extended by hand with the same two steps, expected views and all.
    const once = paths.find(
      (path) =>
        path.flow === 'universalLink' &&
        / → signs a message → the wallet approves$/.test(path.description) &&
        !path.description.includes('reload'),
    )
    expect(once).toBeDefined()
    const signAndApprove = once!.steps.slice(-2)
    const twice = {
      ...once!,
      description: `${once!.description} → signs a message → the wallet approves`,
      steps: [...once!.steps, ...signAndApprove],
    }
    const run = await runClientPath(twice, headless, { wait })
    // Four links for the phone: connect, sign, then the renewed session's connect and sign.
    const created = run.backend?.requests.filter((r) => r === 'POST /api/v1/connect/sessions')
    expect(created).toHaveLength(2)
    expect(run.views.at(-1)).toMatchObject({ status: 'connected', error: null })
  })

  it('covers every status of the view and every status change', () => {
    expect(coverage.statuses.missing).toEqual([])
    expect(coverage.statuses.covered).toContain('awaitingWallet')
    expect(coverage.statuses.covered).toEqual(
      expect.arrayContaining(['reconnecting', 'switchingChain', 'disconnecting']),
    )
    expect(coverage.changes.missing).toEqual([])
    expect(coverage.line()).toContain('not counted: stopped (the root actor stopped from outside')
  })
})
