import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { walletConnectDeepLink } from '../../src/connectors/wallet-paths'
import { supportWallets } from '../../src/registry/wallets'

const URI =
  'wc:7f6e504bfad60b485450578e05678ed3e8e8c4751d3c6160be17160d63ec90f9@2?relay-protocol=irn&symKey=587d5484ce2a2a6ee3ba1962fdd7e8588e06200c46823bd18fbd67def96ad303&expiryTimestamp=1705000000'

describe('walletConnectDeepLink', () => {
  it("appends ?uri= and the percent-encoded wc: URI to the wallet's link", () => {
    const link = walletConnectDeepLink('https://metamask.app.link/wc', URI)
    expect(link.startsWith('https://metamask.app.link/wc?uri=wc%3A')).toBe(true)
    expect(new URL(link).searchParams.get('uri')).toBe(URI)
  })

  it('uses & when the link already has a query', () => {
    const link = walletConnectDeepLink('https://example.wallet/wc?ref=x', URI)
    const url = new URL(link)
    expect(url.searchParams.get('ref')).toBe('x')
    expect(url.searchParams.get('uri')).toBe(URI)
  })

  it("every registry wallet's WalletConnect link round-trips the URI", () => {
    const links = supportWallets
      .map((w) => w.walletConnect?.link)
      // An empty link (no documented one) gets no deep link: the modal filters it out.
      .filter((l): l is string => typeof l === 'string' && l !== '')
    expect(links.length).toBeGreaterThan(0)
    for (const l of links) {
      expect(new URL(walletConnectDeepLink(l, URI)).searchParams.get('uri')).toBe(URI)
    }
  })

  it('any URI survives the round trip (property)', () => {
    fc.assert(
      fc.property(fc.string(), (uri) => {
        const url = new URL(walletConnectDeepLink('https://link.trustwallet.com/wc', uri))
        return url.searchParams.get('uri') === uri && url.pathname === '/wc'
      }),
    )
  })
})
