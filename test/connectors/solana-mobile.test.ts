import { afterEach, describe, expect, it, vi } from 'vitest'
import { registerSolanaMobileWalletAdapter, SOLANA_MOBILE_WALLET_NAME } from '../../src/connectors'

const MWA_NAME = 'Mobile Wallet Adapter'

import { isAppError } from '../../src/errors'
import { installBrowserWindow } from './browser-window'

// Issue 26 item 6: Solana Mobile Wallet Adapter (`@solana-mobile/wallet-standard-mobile`, a lazy
// optional peer) registered on Android so MWA wallets appear on the Wallet Standard
// path. Offline no MWA wallet app answers: what is tested is the registration the modal and
// `selectWallet('wallet-standard:Mobile Wallet Adapter')` read, and the missing peer.

const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36'

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('registerSolanaMobileWalletAdapter', () => {
  it('off Android it registers nothing (no import either)', async () => {
    installBrowserWindow()
    vi.stubGlobal('navigator', { userAgent: 'Mozilla/5.0 (X11; Linux x86_64)' })
    const importMwa = vi.fn(async () => ({}))
    expect(await registerSolanaMobileWalletAdapter({ importMwa })).toBe(false)
    expect(importMwa).not.toHaveBeenCalled()
  })

  it('a missing peer → WALLET_UNAVAILABLE saying how to install it; then its registerMwa gets the app identity and chains', async () => {
    const window = installBrowserWindow('https://dapp.example/')
    vi.stubGlobal('navigator', { userAgent: ANDROID })
    vi.stubGlobal('localStorage', window.localStorage)
    // MWA registers only in a secure context (an https page); happy-dom does not say it is one.
    Object.defineProperty(window, 'isSecureContext', { value: true, configurable: true })
    const error = await registerSolanaMobileWalletAdapter({
      importMwa: () => Promise.reject(new Error('Cannot find package')),
    }).catch((e: unknown) => e)
    expect(isAppError(error, 'WALLET_UNAVAILABLE')).toBe(true)
    expect((error as Error).message).toContain('npm install @solana-mobile/wallet-standard-mobile')
    // A stand-in module with the package's published exports (wallet-standard-mobile 0.6:
    // registerMwa and its three createDefault… helpers). The package itself is not installed here:
    // it pulls react-native and a CLI that want a newer Node than our oldest (engines.test.ts), and
    // its registerMwa declines outside a real Android Chrome anyway.
    const seen: Record<string, unknown>[] = []
    const cache = { kind: 'authorization cache' }
    const notFound = () => undefined
    const standIn = {
      registerMwa: (config: Record<string, unknown>) => {
        seen.push(config)
      },
      createDefaultAuthorizationCache: () => cache,
      createDefaultChainSelector: () => ({ select: async (chains: string[]) => chains[0] }),
      createDefaultWalletNotFoundHandler: () => notFound,
    }
    expect(
      await registerSolanaMobileWalletAdapter({
        importMwa: async () => standIn,
        appIdentity: { name: 'Scope test' },
        chains: ['solana:devnet'],
      }),
    ).toBe(true)
    expect(SOLANA_MOBILE_WALLET_NAME).toBe(MWA_NAME)
    expect(seen).toHaveLength(1)
    expect(seen[0]).toMatchObject({
      appIdentity: { name: 'Scope test', uri: 'https://dapp.example' },
      chains: ['solana:devnet'],
    })
    expect(seen[0]?.onWalletNotFound).toBe(notFound)
    expect(seen[0]?.authorizationCache).toBe(cache)
    // A module without one of those exports is WALLET_UNAVAILABLE naming it, never a TypeError.
    for (const missing of Object.keys(standIn)) {
      const partial = { ...standIn, [missing]: undefined }
      const broken = await registerSolanaMobileWalletAdapter({
        importMwa: async () => partial,
      }).catch((e: unknown) => e)
      expect(isAppError(broken, 'WALLET_UNAVAILABLE')).toBe(true)
      expect((broken as Error).message).toContain(missing)
    }
  })
})
