import { describe, expect, it } from 'vitest'
import {
  createConnectorForWallet,
  Eip6963Connector,
  findEip6963Provider,
  InjectedConnector,
  listEip6963Providers,
  MetaMaskSdkConnector,
  SolanaInjectedConnector,
} from '../../src/connectors'
import { isAppError } from '../../src/errors'
import { getWalletInfo } from '../../src/registry'

// This file runs in plain Node: no `window`, as during server-side rendering. Importing the
// connectors above already proves that nothing touches `window` at import time.
describe('connectors without a window (SSR)', () => {
  it('has no window here', () => {
    expect(typeof window).toBe('undefined')
  })

  it('findEip6963Provider rejects WALLET_UNAVAILABLE at once, even with a long timeout', async () => {
    const error = await findEip6963Provider('io.metamask', 60_000).catch((e: unknown) => e)
    expect(isAppError(error, 'WALLET_UNAVAILABLE')).toBe(true)
    expect(listEip6963Providers()).toEqual([])
  })

  it('every connector can be created, reports unavailable and rejects connect() cleanly', async () => {
    const created = [
      new InjectedConnector(),
      new Eip6963Connector('io.metamask', { timeoutMs: 60_000 }),
      new SolanaInjectedConnector({ walletId: 'phantom' }),
      createConnectorForWallet(getWalletInfo('phantom'), 'solana'),
      createConnectorForWallet(getWalletInfo('metamask'), 'eip155'),
    ]
    for (const connector of created) {
      expect(connector.isAvailable(), connector.id).toBe(false)
      const error = await connector.connect().catch((e: unknown) => e)
      expect(isAppError(error, 'WALLET_UNAVAILABLE'), connector.id).toBe(true)
    }
  })

  it('MetaMaskSdkConnector reports unavailable without a browser', () => {
    expect(new MetaMaskSdkConnector().isAvailable()).toBe(false)
  })
})
