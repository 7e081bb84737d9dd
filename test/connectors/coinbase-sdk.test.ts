import { afterEach, describe, expect, it, vi } from 'vitest'
import { CoinbaseSdkConnector } from '../../src/connectors'
import { isAppError } from '../../src/errors'
import { installBrowserWindow } from './browser-window'

// Issue 26 item 6: Coinbase Wallet through `@coinbase/wallet-sdk` 4, a lazy optional peer. The real
// SDK (a dev dependency) is loaded and started in a happy-dom window; its network side (the popup
// to keys.coinbase.com, the app's relay) cannot be reached here, so no wallet answers a connect:
// what is tested is the load, the start and the failures. A missing peer is an `importSdk` that
// rejects as `import()` of an absent module does.

afterEach(() => {
  vi.unstubAllGlobals()
})

async function failure(connector: CoinbaseSdkConnector): Promise<unknown> {
  return connector.connect().catch((error: unknown) => error)
}

describe('CoinbaseSdkConnector', () => {
  it('a missing peer → WALLET_UNAVAILABLE saying how to install it; unavailable until a load works', async () => {
    installBrowserWindow()
    let installed = false
    const connector = new CoinbaseSdkConnector({
      importSdk: async () => {
        if (!installed) throw new Error("Cannot find package '@coinbase/wallet-sdk'")
        return {
          createCoinbaseWalletSDK: () => ({
            getProvider: () => ({
              request: async ({ method }: { method: string }) =>
                method === 'eth_chainId'
                  ? '0x2105'
                  : ['0x0000000000000000000000000000000000000001'],
              on() {},
              removeListener() {},
            }),
          }),
        }
      },
    })
    expect(connector.isAvailable()).toBe(true)
    const error = await failure(connector)
    expect(isAppError(error, 'WALLET_UNAVAILABLE')).toBe(true)
    expect((error as Error).message).toContain('npm install @coinbase/wallet-sdk')
    expect(connector.isAvailable()).toBe(false)
    // The failed load is not remembered: once installed, the next connect works.
    installed = true
    const connection = await connector.connect()
    expect(connection).toMatchObject({ connectorId: 'coinbase-sdk', chainId: 'eip155:8453' })
    expect(connector.isAvailable()).toBe(true)
  })

  it('a module without createCoinbaseWalletSDK (SDK 3) or one that gives no provider → WALLET_UNAVAILABLE', async () => {
    installBrowserWindow()
    const old = new CoinbaseSdkConnector({
      importSdk: async () => ({ CoinbaseWalletSDK: class {} }),
    })
    const error = await failure(old)
    expect(isAppError(error, 'WALLET_UNAVAILABLE')).toBe(true)
    expect((error as Error).message).toContain('createCoinbaseWalletSDK')
    const empty = new CoinbaseSdkConnector({
      importSdk: async () => ({ createCoinbaseWalletSDK: () => ({ getProvider: () => null }) }),
    })
    expect(((await failure(empty)) as Error).message).toContain('gave no provider')
    const throwing = new CoinbaseSdkConnector({
      importSdk: async () => ({
        createCoinbaseWalletSDK: () => {
          throw new Error('boom')
        },
      }),
    })
    expect(((await failure(throwing)) as Error).message).toContain('failed to start')
  })

  it('the real @coinbase/wallet-sdk 4 loads by the default import and starts an EIP-1193 provider', async () => {
    const window = installBrowserWindow()
    vi.stubGlobal('localStorage', window.localStorage)
    const module = (await import('@coinbase/wallet-sdk')) as {
      createCoinbaseWalletSDK: (options: Record<string, unknown>) => { getProvider(): unknown }
    }
    const seen: Record<string, unknown>[] = []
    const connector = new CoinbaseSdkConnector({
      appName: 'Scope test',
      appChainIds: [8453],
      importSdk: async () => ({
        createCoinbaseWalletSDK: (options: Record<string, unknown>) => {
          seen.push(options)
          return module.createCoinbaseWalletSDK(options)
        },
      }),
    })
    // resolveProvider is what connect() runs first; the wallet side is out of reach offline.
    const provider = await (
      connector as unknown as { resolveProvider(): Promise<{ request: unknown }> }
    ).resolveProvider()
    expect(typeof provider.request).toBe('function')
    expect(seen).toEqual([{ appName: 'Scope test', appChainIds: [8453] }])
    expect(connector.getProvider()).toBe(provider)
  })
})
