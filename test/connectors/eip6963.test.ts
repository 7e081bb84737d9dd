import type { Window } from 'happy-dom'
import { announceProvider, type EIP1193Provider } from 'mipd'
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { isAppError } from '../../src/errors'
import { createEip1193TestWallet, type TestEip1193Wallet } from '../support/eip1193-wallet'
import { sharedAnvil } from '../support/shared-services'
import { installBrowserWindow } from './browser-window'

type Discovery = typeof import('../../src/connectors/eip6963-discovery')
type Connectors = typeof import('../../src/connectors')

const ICON = 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>' as const
const ANNOUNCE = 'eip6963:announceProvider'

const anvil = sharedAnvil()
let window: Window
let discovery: Discovery
let connectors: Connectors
/** Net `eip6963:announceProvider` listeners the code under test has on the window. */
let announceListeners: number
const unannounce: (() => void)[] = []

function announce(rdns: string, provider: TestEip1193Wallet): void {
  unannounce.push(
    announceProvider({
      info: { uuid: crypto.randomUUID(), name: rdns, icon: ICON, rdns },
      provider: provider as unknown as EIP1193Provider,
    }),
  )
}

afterAll(async () => {})
beforeEach(async () => {
  window = installBrowserWindow()
  announceListeners = 0
  const add = window.addEventListener.bind(window)
  const remove = window.removeEventListener.bind(window)
  vi.spyOn(window, 'addEventListener').mockImplementation((type, ...rest) => {
    if (type === ANNOUNCE) announceListeners++
    return add(type, ...rest)
  })
  vi.spyOn(window, 'removeEventListener').mockImplementation((type, ...rest) => {
    if (type === ANNOUNCE) announceListeners--
    return remove(type, ...rest)
  })
  // A fresh module per test: a fresh page-level store that has not listened yet.
  vi.resetModules()
  discovery = await import('../../src/connectors/eip6963-discovery')
  connectors = await import('../../src/connectors')
})
afterEach(() => {
  for (const stop of unannounce.splice(0)) stop()
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

async function wallet(): Promise<TestEip1193Wallet> {
  return createEip1193TestWallet({ rpcUrl: anvil.rpcUrl })
}

describe('findEip6963Provider', () => {
  it('finds a wallet that announced before anyone listened (it answers requestProvider)', async () => {
    const metamask = await wallet()
    announce('io.metamask', metamask)
    expect(await discovery.findEip6963Provider('io.metamask')).toBe(metamask)
  })

  it('finds a wallet that announces after the request', async () => {
    const rainbow = await wallet()
    const found = discovery.findEip6963Provider('me.rainbow', 5_000)
    await Promise.resolve()
    announce('me.rainbow', rainbow)
    expect(await found).toBe(rainbow)
  })

  it('picks the wallet with the requested rdns among several', async () => {
    const [metamask, rabby] = [await wallet(), await wallet()]
    announce('io.metamask', metamask)
    announce('io.rabby', rabby)
    expect(await discovery.findEip6963Provider('io.rabby')).toBe(rabby)
    expect(await discovery.findEip6963Provider('io.metamask')).toBe(metamask)
    expect(
      discovery
        .listEip6963Providers()
        .map((detail) => detail.info.rdns)
        .sort(),
    ).toEqual(['io.metamask', 'io.rabby'])
  })

  it('rejects with TIMEOUT when no wallet with that rdns announces', async () => {
    announce('io.metamask', await wallet())
    const error = await discovery.findEip6963Provider('com.missing', 20).catch((e: unknown) => e)
    expect(isAppError(error, 'TIMEOUT')).toBe(true)
  })

  it('keeps one window listener however many lookups resolve or time out', async () => {
    const metamask = await wallet()
    announce('io.metamask', metamask)
    await discovery.findEip6963Provider('io.metamask')
    const late = discovery.findEip6963Provider('me.rainbow', 5_000)
    announce('me.rainbow', await wallet())
    await late
    await Promise.all([
      discovery.findEip6963Provider('com.missing', 10).catch(() => undefined),
      discovery.findEip6963Provider('com.missing', 10).catch(() => undefined),
    ])
    expect(announceListeners).toBe(1)
  })

  it('ignores malformed announcements', async () => {
    window.dispatchEvent(
      new window.CustomEvent(ANNOUNCE, { detail: { info: { rdns: 'io.bad' }, provider: {} } }),
    )
    const error = await discovery.findEip6963Provider('io.bad', 20).catch((e: unknown) => e)
    expect(isAppError(error, 'TIMEOUT')).toBe(true)
  })
})

describe('Eip6963Connector', () => {
  it('is available synchronously once the wallet has announced', async () => {
    announce('io.metamask', await wallet())
    expect(new connectors.Eip6963Connector('io.metamask').isAvailable()).toBe(true)
    expect(new connectors.Eip6963Connector('io.rabby').isAvailable()).toBe(false)
  })

  it('connects to the announced wallet and fills walletId from the rdns', async () => {
    const [metamask, rabby] = [await wallet(), await wallet()]
    announce('io.metamask', metamask)
    announce('io.rabby', rabby)
    const connector = new connectors.Eip6963Connector('io.rabby')
    const connection = await connector.connect()
    expect(connection).toMatchObject({
      walletId: 'rabby',
      connectorId: 'eip6963:io.rabby',
      accounts: rabby.accounts.map((account) => account.address),
    })
    expect(connector.getProvider()).toBe(rabby)
  })

  it('connects to a wallet that announces while connect() waits', async () => {
    const zerion = await wallet()
    const connecting = new connectors.Eip6963Connector('io.zerion.wallet', {
      timeoutMs: 5_000,
    }).connect()
    announce('io.zerion.wallet', zerion)
    expect((await connecting).accounts[0]).toBe(zerion.accounts[0]!.address)
  })

  it('rejects connect() with WALLET_UNAVAILABLE, TIMEOUT as cause, when the wallet is missing', async () => {
    const error = await new connectors.Eip6963Connector('com.missing', { timeoutMs: 20 })
      .connect()
      .catch((e: unknown) => e)
    expect(isAppError(error, 'WALLET_UNAVAILABLE')).toBe(true)
    expect(isAppError((error as Error).cause, 'TIMEOUT')).toBe(true)
  })
})
