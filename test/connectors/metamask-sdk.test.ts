import { recoverMessageAddress, toHex } from 'viem'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { createMetaMaskSdkProviderGetter, MetaMaskSdkConnector } from '../../src/connectors'
import { type AppError, isAppError } from '../../src/errors'
import { buildSignedMessageEnvelope } from '../../src/wire/envelope'
import { createEip1193TestWallet, type TestEip1193Wallet } from '../support/eip1193-wallet'
import { sharedAnvil } from '../support/shared-services'
import { installBrowserWindow } from './browser-window'

const anvil = sharedAnvil()

afterAll(async () => {})
afterEach(() => {
  vi.unstubAllGlobals()
})

/** A stand-in for the `@metamask/sdk` module whose SDK hands out the viem-backed test wallet. */
function fakeSdkModule(provider: TestEip1193Wallet) {
  const constructed: Record<string, unknown>[] = []
  let initialised = false
  class MetaMaskSDK {
    constructor(options: Record<string, unknown>) {
      constructed.push(options)
    }
    async init() {
      initialised = true
    }
    // Like the real SDK: no provider before init() has run.
    getProvider() {
      return initialised ? provider : undefined
    }
  }
  return { module: { MetaMaskSDK }, constructed }
}

describe('createMetaMaskSdkProviderGetter', () => {
  it('rejects WALLET_UNAVAILABLE, naming the package to install, when @metamask/sdk is missing', async () => {
    // The package is a devDependency here (its types check the docs), so a missing install is the
    // module loader's own refusal.
    const notInstalled = Object.assign(new Error("Cannot find package '@metamask/sdk'"), {
      code: 'ERR_MODULE_NOT_FOUND',
    })
    const error = await createMetaMaskSdkProviderGetter({
      importSdk: () => Promise.reject(notInstalled),
    })().catch((e: unknown) => e)
    expect(isAppError(error, 'WALLET_UNAVAILABLE')).toBe(true)
    expect((error as AppError).message).toContain('npm install @metamask/sdk')
  })

  it('imports and constructs the SDK once, lazily, and hands out its provider', async () => {
    const wallet = await createEip1193TestWallet({ rpcUrl: anvil.rpcUrl })
    const { module, constructed } = fakeSdkModule(wallet)
    const importSdk = vi.fn(async () => module)
    const getProvider = createMetaMaskSdkProviderGetter({ importSdk, infuraAPIKey: 'key-1' })
    expect(importSdk).not.toHaveBeenCalled()

    const [first, second] = await Promise.all([getProvider(), getProvider()])
    expect(first).toBe(wallet)
    expect(second).toBe(wallet)
    expect(await getProvider()).toBe(wallet)
    expect(importSdk).toHaveBeenCalledTimes(1)
    expect(constructed).toHaveLength(1)
    expect(constructed[0]).toMatchObject({ infuraAPIKey: 'key-1' })
    expect(constructed[0]).not.toHaveProperty('importSdk')
  })

  it('fills dappMetadata from the page, letting the caller override fields', async () => {
    const window = installBrowserWindow('https://shop.example/checkout')
    window.document.title = 'Shop'
    const wallet = await createEip1193TestWallet({ rpcUrl: anvil.rpcUrl })
    const { module, constructed } = fakeSdkModule(wallet)
    await createMetaMaskSdkProviderGetter({
      importSdk: async () => module,
      dappMetadata: { iconUrl: 'https://shop.example/icon.png' },
    })()
    expect(constructed[0]?.dappMetadata).toEqual({
      name: 'Shop',
      url: 'https://shop.example',
      iconUrl: 'https://shop.example/icon.png',
    })
  })

  it('accepts a CommonJS-shaped module (MetaMaskSDK under default)', async () => {
    const wallet = await createEip1193TestWallet({ rpcUrl: anvil.rpcUrl })
    const { module } = fakeSdkModule(wallet)
    const getProvider = createMetaMaskSdkProviderGetter({
      importSdk: async () => ({ default: module }),
    })
    expect(await getProvider()).toBe(wallet)
  })

  it('rejects WALLET_UNAVAILABLE when the module has no MetaMaskSDK or the SDK gives no provider', async () => {
    const noExport = await createMetaMaskSdkProviderGetter({ importSdk: async () => ({}) })().catch(
      (e: unknown) => e,
    )
    expect(isAppError(noExport, 'WALLET_UNAVAILABLE')).toBe(true)

    class NoProviderSdk {
      getProvider() {
        return undefined
      }
    }
    const noProvider = await createMetaMaskSdkProviderGetter({
      importSdk: async () => ({ MetaMaskSDK: NoProviderSdk }),
    })().catch((e: unknown) => e)
    expect(isAppError(noProvider, 'WALLET_UNAVAILABLE')).toBe(true)
  })

  it('does not remember a failed load: the next call tries again', async () => {
    const wallet = await createEip1193TestWallet({ rpcUrl: anvil.rpcUrl })
    const { module } = fakeSdkModule(wallet)
    const importSdk = vi
      .fn<() => Promise<unknown>>()
      .mockRejectedValueOnce(new Error('chunk failed to load'))
      .mockResolvedValue(module)
    const getProvider = createMetaMaskSdkProviderGetter({ importSdk })
    await expect(getProvider()).rejects.toMatchObject({ code: 'WALLET_UNAVAILABLE' })
    expect(await getProvider()).toBe(wallet)
    expect(importSdk).toHaveBeenCalledTimes(2)
  })
})

describe('MetaMaskSdkConnector', () => {
  it('connects and signs through the SDK provider; the SDK is built on first connect only', async () => {
    installBrowserWindow()
    const wallet = await createEip1193TestWallet({ rpcUrl: anvil.rpcUrl })
    const { module, constructed } = fakeSdkModule(wallet)
    const connector = new MetaMaskSdkConnector({ importSdk: async () => module })
    expect(connector.isAvailable()).toBe(true)
    expect(connector.getProvider()).toBeUndefined()
    expect(constructed).toHaveLength(0)

    const connection = await connector.connect()
    expect(connection).toMatchObject({
      walletId: 'metamask',
      connectorId: 'metamask',
      namespace: 'eip155',
      chainId: `eip155:${anvil.chainId}`,
    })
    const address = connection.accounts[0]!
    const message = buildSignedMessageEnvelope('s-1', 'n-1', address, 1_767_225_600_000)
    const signature = await connector.request<`0x${string}`>({
      method: 'personal_sign',
      params: [toHex(message), address],
    })
    expect(await recoverMessageAddress({ message, signature })).toBe(address)

    await connector.disconnect()
    await connector.connect()
    expect(constructed).toHaveLength(1)
    expect(connector.getProvider()).toBe(wallet)
  })

  it('reports unavailable once the SDK turned out to be missing', async () => {
    installBrowserWindow()
    const connector = new MetaMaskSdkConnector()
    expect(connector.isAvailable()).toBe(true)
    await expect(connector.connect()).rejects.toMatchObject({ code: 'WALLET_UNAVAILABLE' })
    expect(connector.isAvailable()).toBe(false)
  })
})
