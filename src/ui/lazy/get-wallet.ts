import type { walletIcon } from './dom'
import type { UiKit } from './toast'

/** Where a wallet's apps are: the iOS App Store, Google Play, the Chrome Web Store. */
export interface WalletStores {
  ios?: string
  android?: string
  chrome?: string
}

/** The platform the page runs on, for the order of the store links. */
export type StorePlatform = 'ios' | 'android' | 'desktop'

const app = (id: string) => `https://apps.apple.com/app/id${id}`
const play = (id: string) => `https://play.google.com/store/apps/details?id=${id}`
const chrome = (id: string) => `https://chromewebstore.google.com/detail/${id}`

/**
 * The registry wallets' store pages (as the wallets publish them; cross-checked with the download
 * links of `@rainbow-me/rainbowkit` 2.2.11). A chunk of its own: the list loads it when the user
 * asks for "Get a wallet".
 */
export const WALLET_STORES: Record<string, WalletStores> = /* @__PURE__ */ (() => ({
  metamask: {
    ios: app('1438144202'),
    android: play('io.metamask'),
    chrome: chrome('nkbihfbeogaeaoehlefnkodbefgpgknn'),
  },
  phantom: {
    ios: app('1598432977'),
    android: play('app.phantom'),
    chrome: chrome('bfnaelmomeimhlpmgjnjophhpkkoljpa'),
  },
  coinbase: {
    ios: app('1278383455'),
    android: play('org.toshi'),
    chrome: chrome('hnfanknocfeofbddgcijnmhnfnkdnaad'),
  },
  rabby: { chrome: chrome('acmacodkjbdgmoleebolmdjonilkdbch') },
  trust: {
    ios: app('1288339409'),
    android: play('com.wallet.crypto.trustapp'),
    chrome: chrome('egjidjbpglichdcondbcbdnbeeppgdph'),
  },
  okx: { android: play('com.okinc.okex.gp'), chrome: chrome('mcohilncbfahbmgdjkbpemcciiolgcge') },
  rainbow: { ios: app('1457119021'), android: play('me.rainbow') },
  backpack: {
    ios: app('6445964121'),
    android: play('app.backpack.mobile'),
    chrome: chrome('aflkmfhebedbjioipglgcbcmnbpgliof'),
  },
  zerion: { ios: app('1456732565'), android: play('io.zerion.android') },
}))()

const STORE_NAMES: Record<keyof WalletStores, string> = {
  ios: 'App Store',
  android: 'Google Play',
  chrome: 'Chrome Web Store',
}

/** What the screen uses of the elements chunk, handed in by the modal (see `UiKit`). */
export interface GetWalletKit extends Pick<UiKit, 'h' | 'M'> {
  walletIcon: typeof walletIcon
}

/** The stores in the order the platform wants them: its own first. */
export function storeOrder(platform: StorePlatform): (keyof WalletStores)[] {
  if (platform === 'ios') return ['ios', 'android', 'chrome']
  if (platform === 'android') return ['android', 'ios', 'chrome']
  return ['chrome', 'ios', 'android']
}

/** The platform of a user agent: iOS, Android, else a desktop browser. */
export function storePlatform(userAgent: string): StorePlatform {
  if (/iPhone|iPad|iPod/i.test(userAgent)) return 'ios'
  return /Android/i.test(userAgent) ? 'android' : 'desktop'
}

/**
 * The "Get a wallet" screen's body: each wallet of `wallets` with a store page, its store links in
 * the platform's order (each opens a new tab, `rel="noopener noreferrer"`), then Back. `h`, the
 * messages and the list's `walletIcon` are handed in by the modal: this chunk then shares no module with the elements'.
 */
export function getWalletScreen(
  kit: GetWalletKit,
  wallets: readonly { id: string; name: string; icon?: string }[],
  platform: StorePlatform,
  back: () => void,
): HTMLElement[] {
  const { h, M, walletIcon } = kit
  const order = storeOrder(platform)
  const rows = wallets.flatMap((wallet) => {
    const stores = WALLET_STORES[wallet.id]
    if (!stores) return []
    const links = order.flatMap((store) => {
      const href = stores[store]
      return href
        ? [
            h(
              'a',
              { class: 'btn', href, target: '_blank', rel: 'noopener noreferrer' },
              STORE_NAMES[store],
            ),
          ]
        : []
    })
    return [
      h(
        'li',
        { class: 'store' },
        h(
          'span',
          { class: 'chip' },
          walletIcon(wallet.name, wallet.icon),
          h('span', { class: 'name' }, wallet.name),
        ),
        h('span', { class: 'row' }, ...links),
      ),
    ]
  })
  return [
    h('ul', { part: 'get-wallet', 'aria-label': M.getWallet }, ...rows),
    h('button', { type: 'button', onclick: back }, M.back),
  ]
}
