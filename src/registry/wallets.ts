import { deepFreeze } from './freeze'
import type { SupportWalletInfo } from './types'

/**
 * The built-in wallets, in document order (the order UIs list them in).
 *
 * - `rdns` is the name the extension announces over EIP-6963.
 * - `mobile.universalLink` is the app's HTTPS link; `buildUniversalLinkUrl` appends the `sc*` params.
 * - `relay` lists the namespaces the mobile app pairs on by QR code (WalletConnect-style pairing).
 * - `injected.walletStandardName` is the name a Solana extension registers with the Wallet Standard.
 * - `injected.providerFlag` is the flag its `window.ethereum` sets, for an EVM extension that does
 *   not announce itself (EIP-6963); other wallets set some of them too (Rabby sets `isMetaMask`), so
 *   the flag is trusted only for a provider that no wallet announced.
 *
 * Frozen: prefer the lookup functions (`listSupportedWallets`, `getWalletInfo`).
 */
export const supportWallets: readonly SupportWalletInfo[] = /* @__PURE__ */ deepFreeze([
  {
    id: 'metamask',
    name: 'MetaMask',
    homepage: 'https://metamask.io',
    // EVM only in 0.1.0: the SDK-provider connector and EIP-6963 cover MetaMask's EVM side.
    namespaces: ['eip155'],
    rdns: 'io.metamask',
    walletConnect: { link: 'https://metamask.app.link/wc', namespaces: ['eip155'] },
    sdk: 'metamask',
    injected: { namespaces: ['eip155'], providerFlag: 'isMetaMask' },
  },
  {
    id: 'phantom',
    name: 'Phantom',
    homepage: 'https://phantom.com',
    namespaces: ['solana', 'eip155'],
    // Phantom's EVM side covers only these chains; it cannot add custom networks (no local Anvil).
    chains: [
      'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
      'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
      'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z',
      'eip155:1',
      'eip155:8453',
      'eip155:137',
      'eip155:11155111',
      'eip155:84532',
    ],
    rdns: 'app.phantom',
    phantomLink: { baseUrl: 'https://phantom.app/ul/v1/' },
    injected: {
      namespaces: ['solana', 'eip155'],
      walletStandardName: 'Phantom',
      providerFlag: 'isPhantom',
    },
  },
  {
    id: 'coinbase',
    name: 'Coinbase Wallet',
    homepage: 'https://www.coinbase.com/wallet',
    namespaces: ['eip155', 'solana'],
    rdns: 'com.coinbase.wallet',
    walletConnect: { link: '', namespaces: ['eip155'] },
    sdk: 'coinbase',
    injected: {
      namespaces: ['eip155', 'solana'],
      walletStandardName: 'Coinbase Wallet',
      providerFlag: 'isCoinbaseWallet',
    },
  },
  {
    id: 'rabby',
    name: 'Rabby',
    homepage: 'https://rabby.io',
    namespaces: ['eip155'],
    rdns: 'io.rabby',
    injected: { namespaces: ['eip155'], providerFlag: 'isRabby' },
  },
  {
    id: 'trust',
    name: 'Trust Wallet',
    homepage: 'https://trustwallet.com',
    namespaces: ['eip155', 'solana'],
    rdns: 'com.trustwallet.app',
    walletConnect: { link: 'https://link.trustwallet.com/wc', namespaces: ['eip155', 'solana'] },
    injected: {
      namespaces: ['eip155', 'solana'],
      walletStandardName: 'Trust',
      providerFlag: 'isTrust',
    },
  },
  {
    id: 'okx',
    name: 'OKX Wallet',
    homepage: 'https://web3.okx.com',
    namespaces: ['eip155', 'solana'],
    rdns: 'com.okex.wallet',
    injected: {
      namespaces: ['eip155', 'solana'],
      walletStandardName: 'OKX Wallet',
      providerFlag: 'isOkxWallet',
    },
  },
  {
    id: 'rainbow',
    name: 'Rainbow',
    homepage: 'https://rainbow.me',
    namespaces: ['eip155'],
    rdns: 'me.rainbow',
    walletConnect: { link: 'https://rnbwapp.com/wc', namespaces: ['eip155'] },
    injected: { namespaces: ['eip155'], providerFlag: 'isRainbow' },
  },
  {
    id: 'backpack',
    name: 'Backpack',
    homepage: 'https://backpack.app',
    namespaces: ['solana', 'eip155'],
    chains: [
      'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
      'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
      'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z',
      'eip155:1',
      'eip155:8453',
      'eip155:42161',
      'eip155:10',
      'eip155:137',
    ],
    rdns: 'app.backpack',
    injected: {
      namespaces: ['solana', 'eip155'],
      walletStandardName: 'Backpack',
      providerFlag: 'isBackpack',
    },
  },
  {
    id: 'solflare',
    name: 'Solflare',
    homepage: 'https://solflare.com',
    namespaces: ['solana'],
    phantomLink: { baseUrl: 'https://solflare.com/ul/v1/' },
    injected: { namespaces: ['solana'], walletStandardName: 'Solflare' },
  },
  {
    id: 'zerion',
    name: 'Zerion',
    homepage: 'https://zerion.io',
    namespaces: ['eip155'],
    rdns: 'io.zerion.wallet',
    walletConnect: { link: 'https://wallet.zerion.io/wc', namespaces: ['eip155'] },
    injected: { namespaces: ['eip155'], providerFlag: 'isZerion' },
  },
  {
    id: 'brave',
    name: 'Brave Wallet',
    homepage: 'https://brave.com/wallet',
    namespaces: ['eip155', 'solana'],
    rdns: 'com.brave.wallet',
    // Built into the Brave browser: no separate app to link to, no QR pairing.
    injected: {
      namespaces: ['eip155', 'solana'],
      walletStandardName: 'Brave Wallet',
      providerFlag: 'isBraveWallet',
    },
  },
  {
    id: 'uniswap',
    name: 'Uniswap Wallet',
    homepage: 'https://wallet.uniswap.org',
    namespaces: ['eip155'],
    rdns: 'org.uniswap.app',
    walletConnect: { link: 'https://uniswap.org/app/wc', namespaces: ['eip155'] },
    injected: { namespaces: ['eip155'] },
  },
  {
    id: 'exodus',
    name: 'Exodus',
    homepage: 'https://www.exodus.com',
    namespaces: ['eip155', 'solana'],
    rdns: 'com.exodus.web3-wallet',
    injected: {
      namespaces: ['eip155', 'solana'],
      walletStandardName: 'Exodus',
      providerFlag: 'isExodus',
    },
  },
])
