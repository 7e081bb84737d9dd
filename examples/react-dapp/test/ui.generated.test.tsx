// @vitest-environment happy-dom
import { fireEvent, render, within } from '@testing-library/react'
import type { ClientView } from 'scope-connect/client'
import {
  ClientPathError,
  createClientCoverage,
  createDomDriver,
  getClientPaths,
  runClientPath,
  type UserActionType,
} from 'scope-connect/testing'
import { afterAll, describe, expect, it } from 'vitest'
import { ConnectPanel } from '../src/ConnectPanel'
import { BUTTON_OF, checkConnectPanel } from '../src/ui-checks'

// The React example's UI tests, all generated: every path of the Client's chart replayed on the
// connect panel (happy-dom, Testing Library). Nothing here names a flow.

/** Clicks the button of an action with Testing Library; a disabled one fails the path. */
function click(ui: HTMLElement, type: UserActionType) {
  const button = within(ui).getByRole('button', { name: BUTTON_OF[type] })
  if ((button as HTMLButtonElement).disabled) throw new Error(`"${BUTTON_OF[type]}" is disabled`)
  fireEvent.click(button)
}

const panel = (isConnectEnabled?: (view: ClientView) => boolean) =>
  createDomDriver({
    render: (client) =>
      render(<ConnectPanel client={client} {...(isConnectEnabled ? { isConnectEnabled } : {})} />),
    act: {
      selectWallet: (ui) => click(ui, 'selectWallet'),
      connect: (ui) => click(ui, 'connect'),
      pair: (ui) => click(ui, 'pair'),
      cancel: (ui) => click(ui, 'cancel'),
      signMessage: (ui) => click(ui, 'signMessage'),
      disconnect: (ui) => click(ui, 'disconnect'),
    },
    expect: (view, ui) => checkConnectPanel(view, ui),
  })

const paths = getClientPaths()
const coverage = createClientCoverage()

afterAll(() => {
  console.log(coverage.line())
})

describe('the connect panel on every generated path', () => {
  for (const path of paths)
    it(path.description, async () => {
      await runClientPath(path, panel(), { coverage })
    })

  it('covers every status and status change the chart allows', () => {
    expect(coverage.statuses.missing).toEqual([])
    expect(coverage.changes.missing).toEqual([])
  })
})

describe('a planted bug: Connect left disabled after USER_REJECTED', () => {
  const buggy = (view: ClientView) => view.canConnect && view.error?.code !== 'USER_REJECTED'
  const rejected = paths.find((path) =>
    /connects → the wallet rejects → connects$/.test(path.description),
  )

  it('a generated path catches it', async () => {
    expect(rejected).toBeDefined()
    const failure = await runClientPath(rejected!, panel(buggy)).then(
      () => null,
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(ClientPathError)
    expect(String((failure as Error).message)).toContain(
      'Connect enabled: the UI shows false, the view says true',
    )
  })

  it('the fixed panel passes the same path', async () => {
    await runClientPath(rejected!, panel())
  })
})
