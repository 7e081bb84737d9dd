// @vitest-environment happy-dom
import { fireEvent, render, within } from '@testing-library/react'
import type { ClientView } from 'scope-connect/client'
import {
  ClientPathError,
  createClientCoverage,
  createDomDriver,
  getClientPaths,
  preloadClientPaths,
  runClientPath,
  UNCOUNTED_STATUSES,
  type UserAction,
} from 'scope-connect/testing'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { ConnectPanel } from '../src/ConnectPanel'
import { buttonFor, checkConnectPanel } from '../src/ui-checks'

// The React example's UI tests, all generated: every path of the Client's chart replayed on the
// connect panel (happy-dom, Testing Library). Nothing here names a flow.

/** Clicks the button of an action with Testing Library; a disabled one fails the path. */
function click(ui: HTMLElement, action: UserAction) {
  const name = buttonFor(action)
  const button = within(ui).getByRole('button', { name })
  if ((button as HTMLButtonElement).disabled) throw new Error(`"${name}" is disabled`)
  fireEvent.click(button)
}

const panel = (isConnectEnabled?: (view: ClientView) => boolean) =>
  createDomDriver({
    render: (client) =>
      render(<ConnectPanel client={client} {...(isConnectEnabled ? { isConnectEnabled } : {})} />),
    act: {
      selectWallet: click,
      connect: click,
      pair: click,
      cancel: click,
      signMessage: click,
      disconnect: click,
      switchChain: click,
      sendTransaction: click,
    },
    expect: (view, ui) => checkConnectPanel(view, ui),
  })

// The panel is a desktop page: the universal-link (mobile) flow's paths replay in the kit's own test.
const FLOWS = { flows: ['desktop', 'pairing'] } as const
const paths = getClientPaths(FLOWS)
const coverage = createClientCoverage(FLOWS)

afterAll(() => {
  console.log(coverage.line())
})
// The replays run on virtual time (a named timeout passes at once), the Client's lazy chunks
// loaded first, on real time.
beforeAll(async () => {
  await preloadClientPaths(paths)
}, 30_000)
beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})
const wait = async (ms: number) => {
  await vi.advanceTimersByTimeAsync(ms)
}

describe('the connect panel on every generated path', () => {
  for (const path of paths)
    it(path.description, async () => {
      await runClientPath(path, panel(), { coverage, wait })
    })

  it('covers every status and status change the chart allows', () => {
    // Counted against the flows replayed here: `awaitingWallet`, the universal-link flow's, is not.
    expect(coverage.statuses.missing).toEqual([])
    expect(coverage.statuses.covered).not.toContain('awaitingWallet')
    expect(coverage.changes.missing).toEqual([])
    expect(UNCOUNTED_STATUSES.map((s) => s.status)).toEqual(['stopped'])
  })
})

describe('a planted bug: Connect left disabled after USER_REJECTED', () => {
  const buggy = (view: ClientView) => view.canConnect && view.error?.code !== 'USER_REJECTED'
  const rejected = paths.find((path) =>
    /connects → the wallet rejects → connects$/.test(path.description),
  )

  it('a generated path catches it', async () => {
    expect(rejected).toBeDefined()
    const failure = await runClientPath(rejected!, panel(buggy), { wait }).then(
      () => null,
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(ClientPathError)
    expect(String((failure as Error).message)).toContain(
      'Connect enabled: the UI shows false, the view says true',
    )
  })

  it('the fixed panel passes the same path', async () => {
    await runClientPath(rejected!, panel(), { wait })
  })
})
