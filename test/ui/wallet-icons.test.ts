import { describe, expect, it } from 'vitest'
import { supportWallets } from '../../src/registry/wallets'
import { WALLET_ICONS } from '../../src/ui/lazy/icons'
import { walletOptions } from '../../src/ui/lazy/wallets'
import { projectConfig } from './support/project-config'

// Issue 31 item 6: registry wallets get real icons (SVG data URLs from @rainbow-me/rainbowkit, MIT),
// in src/ui/lazy/icons.ts, a chunk the modal imports when the list renders (not letter tiles).

/** Registry wallets rainbowkit 2.2.11 ships no icon for (still letter tiles). */
const WITHOUT_ICON = ['solflare', 'exodus']

describe('wallet icons', () => {
  it('every registry wallet but the listed ones has an SVG data-URL icon under 6 KB', () => {
    const missing = supportWallets.filter((wallet) => !WALLET_ICONS[wallet.id]).map((w) => w.id)
    expect(missing).toEqual(WITHOUT_ICON)
    for (const [id, icon] of Object.entries(WALLET_ICONS)) {
      expect(supportWallets.map((wallet) => wallet.id)).toContain(id)
      expect(icon, id).toMatch(/^data:image\/svg\+xml,%3C(svg|%3Fxml)/)
      expect(icon.length, id).toBeLessThan(6000)
      // markup-safe in an attribute: no quote or angle bracket survives the URL encoding
      expect(icon, id).not.toMatch(/["<>]/)
    }
  })

  it("every row of a registry wallet names its wallet, so the modal can find the row's icon", () => {
    const config = projectConfig(
      supportWallets
        .filter((wallet) => wallet.namespaces.includes('eip155'))
        .map((wallet) => ({ walletId: wallet.id, name: wallet.name, namespaces: ['eip155'] })),
    )
    for (const served of [{}, { walletConnect: true }]) {
      const rows = walletOptions(config, false, served)
      for (const wallet of config.wallets) {
        const row = rows.find((option) => option.name === wallet.name)
        expect(row?.walletId, wallet.name).toBe(wallet.walletId)
      }
    }
  })
})
