import { afterAll, describe, expect, it } from 'vitest'
import {
  type ClientPathDriver,
  createClientCoverage,
  getClientPaths,
  runClientPath,
} from '../../src/testing'

// The generated paths replayed on the real Client with no UI: the Client shows, after every step,
// the view the chart gives. The driver calls the method itself, as a UI handler would.
const headless: ClientPathDriver = {
  mount: () => {},
  act: (action, client) => {
    action.run(client).catch(() => {})
  },
  expect: () => {},
}

const paths = getClientPaths()
const coverage = createClientCoverage()
afterAll(() => console.log(coverage.line()))

describe('generated paths (desktop, pairing) on the real Client', () => {
  it('there are paths, each from a fresh page', () => {
    expect(paths.length).toBeGreaterThan(20)
  })
  for (const path of paths)
    it(path.description, async () => {
      await runClientPath(path, headless, { coverage })
    })

  it('covers every status of the view but the universal-link flow, and every status change', () => {
    expect(coverage.statuses.missing).toEqual(['awaitingWallet'])
    expect(coverage.statuses.covered).toEqual(
      expect.arrayContaining(['reconnecting', 'switchingChain', 'disconnecting']),
    )
    expect(coverage.changes.missing).toEqual([])
    expect(coverage.line()).toContain('not counted: stopped (the root actor stopped from outside')
  })
})
