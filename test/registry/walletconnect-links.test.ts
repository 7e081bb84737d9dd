import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { walletConnectDeepLink } from '../../src/connectors/wallet-paths'
import { supportWallets } from '../../src/registry/wallets'

// Issue 26 item 1: every built-in wallet's WalletConnect link, checked against the list recorded
// from public sources (docs/connectors.md, "The registry's WalletConnect links": WalletConnect's
// explorer entries and RainbowKit's wallet list), and against the modal's way of using it.

/** The recorded links, wallet id → link ('' where no public source documents one). */
const RECORDED: Record<string, string> = {
  metamask: 'https://metamask.app.link/wc',
  coinbase: '',
  trust: 'https://link.trustwallet.com/wc',
  rainbow: 'https://rnbwapp.com/wc',
  zerion: 'https://wallet.zerion.io/wc',
  uniswap: 'https://uniswap.org/app/wc',
}

/** WalletConnect's explorer `mobile.universal` of each recorded wallet (the link is it + `/wc`). */
const EXPLORER_UNIVERSAL: Record<string, string> = {
  metamask: 'https://metamask.app.link',
  trust: 'https://link.trustwallet.com',
  rainbow: 'https://rnbwapp.com',
  zerion: 'https://wallet.zerion.io',
  uniswap: 'https://uniswap.org/app',
}

const URI =
  'wc:7f6e504bfad60b485450578e05678ed3e8e8c4751d3c6160be17160d63ec90f9@2?relay-protocol=irn&symKey=587d5484ce2a2a6ee3ba1962fdd7e8588e06200c46823bd18fbd67def96ad303&expiryTimestamp=1705000000'

/** The rows of docs/connectors.md's recorded table: [wallet id, link or '—']. */
function documentedRows(): [string, string][] {
  const page = readFileSync(join(import.meta.dirname, '../../docs/connectors.md'), 'utf8')
  const start = page.indexOf('<!-- walletconnect-links -->')
  const end = page.indexOf('<!-- /walletconnect-links -->')
  expect(start).toBeGreaterThan(0)
  return page
    .slice(start, end)
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [id = '', link = ''] = line
        .split('|')
        .slice(1, 3)
        .map((cell) => cell.trim().replaceAll('`', ''))
      return [id, link]
    })
}

const withWalletConnect = supportWallets.filter((wallet) => wallet.walletConnect !== undefined)

describe("the registry's WalletConnect links", () => {
  it('are the recorded list, wallet by wallet', () => {
    expect(
      Object.fromEntries(withWalletConnect.map((w) => [w.id, w.walletConnect?.link ?? ''])),
    ).toEqual(RECORDED)
  })

  it('are the table of docs/connectors.md, with its source column filled', () => {
    expect(documentedRows()).toEqual(
      Object.entries(RECORDED).map(([id, link]) => [id, link === '' ? '—' : link]),
    )
  })

  it('each is https, has no query or fragment, and is the explorer link + /wc', () => {
    for (const [id, link] of Object.entries(RECORDED)) {
      if (link === '') continue
      const url = new URL(link)
      expect(url.protocol).toBe('https:')
      expect(url.search).toBe('')
      expect(url.hash).toBe('')
      expect(link.endsWith('/wc')).toBe(true)
      expect(link).toBe(`${EXPLORER_UNIVERSAL[id]}/wc`)
    }
  })

  it("the modal's deep link is the link + ?uri= + the encoded URI, which reads back", () => {
    for (const link of Object.values(RECORDED).filter((l) => l !== '')) {
      const deepLink = walletConnectDeepLink(link, URI)
      expect(deepLink).toBe(`${link}?uri=${encodeURIComponent(URI)}`)
      const url = new URL(deepLink)
      expect(`${url.origin}${url.pathname}`).toBe(link)
      expect(url.searchParams.get('uri')).toBe(URI)
    }
  })

  it('property: any wc: URI survives every link (the path stays /wc)', () => {
    const links = Object.values(RECORDED).filter((l) => l !== '')
    fc.assert(
      fc.property(fc.constantFrom(...links), fc.string(), (link, uri) => {
        const url = new URL(walletConnectDeepLink(link, uri))
        return url.searchParams.get('uri') === uri && `${url.origin}${url.pathname}` === link
      }),
    )
  })

  it("a wallet with no documented link gets no phone deep link (the modal's filter), only the QR code", () => {
    const linked = withWalletConnect.filter((w) => w.walletConnect?.link).map((w) => w.id)
    expect(linked).not.toContain('coinbase')
    expect(linked).toEqual(Object.keys(RECORDED).filter((id) => RECORDED[id] !== ''))
  })
})
