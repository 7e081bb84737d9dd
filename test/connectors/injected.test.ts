import { afterAll, afterEach, beforeEach, expect, it, vi } from 'vitest'
import { InjectedConnector } from '../../src/connectors'
import { createEip1193TestWallet } from '../support/eip1193-wallet'
import { sharedAnvil } from '../support/shared-services'
import { installBrowserWindow } from './browser-window'

const anvil = sharedAnvil()
let window: { ethereum?: unknown }

afterAll(async () => {})
beforeEach(() => {
  window = installBrowserWindow() as unknown as { ethereum?: unknown }
})
afterEach(() => {
  vi.unstubAllGlobals()
})

it('reads window.ethereum when used, not when constructed', async () => {
  const connector = new InjectedConnector()
  expect(connector.isAvailable()).toBe(false)

  const wallet = await createEip1193TestWallet({ rpcUrl: anvil.rpcUrl })
  window.ethereum = wallet
  expect(connector.isAvailable()).toBe(true)
  expect(connector.getProvider()).toBe(wallet)

  const connection = await connector.connect()
  expect(connection.connectorId).toBe('injected')
  expect(connection.accounts).toEqual(wallet.accounts.map((account) => account.address))
  expect(connection.chainId).toBe(`eip155:${anvil.chainId}`)
})

it('prefers the provider it was given over window.ethereum', async () => {
  const given = await createEip1193TestWallet({ rpcUrl: anvil.rpcUrl })
  window.ethereum = await createEip1193TestWallet({ rpcUrl: anvil.rpcUrl })
  const connection = await new InjectedConnector(given).connect()
  expect(connection.accounts[0]).toBe(given.accounts[0]!.address)
})

it('ignores a window.ethereum that is not an EIP-1193 provider', async () => {
  window.ethereum = { isMetaMask: true }
  const connector = new InjectedConnector()
  expect(connector.isAvailable()).toBe(false)
  await expect(connector.connect()).rejects.toMatchObject({ code: 'WALLET_UNAVAILABLE' })
})
