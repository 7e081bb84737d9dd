// @vitest-environment happy-dom-node
import { describe, expect, it } from 'vitest'
import { supportWallets } from '../../src/registry/wallets'
import { h, walletIcon } from '../../src/ui/lazy/dom'
import {
  getWalletScreen,
  storeOrder,
  storePlatform,
  WALLET_STORES,
} from '../../src/ui/lazy/get-wallet'
import { en } from '../../src/ui/lazy/messages/en'

// Issue 31 item 6: the "Get a wallet" screen lists the registry wallets' store pages, the
// platform's own store first; every link is https, opens a new tab without an opener.

const STORE_HOSTS = {
  ios: 'apps.apple.com',
  android: 'play.google.com',
  chrome: 'chromewebstore.google.com',
} as const

describe('Get a wallet', () => {
  it('knows a store page for registry wallets only, each on its store', () => {
    const ids = new Set(supportWallets.map((wallet) => wallet.id))
    expect(Object.keys(WALLET_STORES).length).toBeGreaterThanOrEqual(8)
    for (const [id, stores] of Object.entries(WALLET_STORES)) {
      expect(ids.has(id), id).toBe(true)
      for (const [store, href] of Object.entries(stores)) {
        const url = new URL(href as string)
        expect(url.protocol, `${id} ${store}`).toBe('https:')
        expect(url.host, `${id} ${store}`).toBe(STORE_HOSTS[store as keyof typeof STORE_HOSTS])
      }
    }
  })

  it('reads the platform from the user agent; its own store comes first', () => {
    expect(storePlatform('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)')).toBe('ios')
    expect(storePlatform('Mozilla/5.0 (Linux; Android 14; Pixel 8)')).toBe('android')
    expect(storePlatform('Mozilla/5.0 (X11; Linux x86_64) Chrome/131')).toBe('desktop')
    expect(storeOrder('ios')[0]).toBe('ios')
    expect(storeOrder('android')[0]).toBe('android')
    expect(storeOrder('desktop')[0]).toBe('chrome')
  })

  for (const platform of ['ios', 'android', 'desktop'] as const) {
    it(`lists each wallet's store links in the ${platform} order; Back goes back`, () => {
      let backs = 0
      const [list, back] = getWalletScreen(
        { h, M: en, walletIcon },
        supportWallets,
        platform,
        () => backs++,
      )
      const items = [...(list?.querySelectorAll('li') ?? [])]
      expect(items.length).toBe(
        supportWallets.filter((wallet) => WALLET_STORES[wallet.id] !== undefined).length,
      )
      const metamask = items.find((item) => item.textContent?.includes('MetaMask'))
      const links = [...(metamask?.querySelectorAll('a') ?? [])]
      expect(links.map((link) => new URL(link.href).host)).toEqual(
        storeOrder(platform).map((store) => STORE_HOSTS[store]),
      )
      for (const link of list?.querySelectorAll('a') ?? []) {
        expect(link.getAttribute('rel')).toBe('noopener noreferrer')
        expect(link.getAttribute('target')).toBe('_blank')
      }
      expect(back?.textContent).toBe('Back')
      back?.click()
      expect(backs).toBe(1)
    })
  }
})
