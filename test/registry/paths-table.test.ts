import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { renderWalletPathsTable } from '../../scripts/wallet-paths-table'

// docs/connectors.md's wallet × (desktop, phone browser, in-app browser) table is the registry's
// truth, as `walletPaths` reads it: regenerate with `npx tsx scripts/wallet-paths-table.ts`.

describe('docs/connectors.md wallet paths table', () => {
  it('is the one walletPaths gives for every built-in wallet', () => {
    const page = readFileSync(join(import.meta.dirname, '../../docs/connectors.md'), 'utf8')
    const start = page.indexOf('<!-- wallet-paths-table')
    const end = page.indexOf('<!-- /wallet-paths-table -->')
    expect(start).toBeGreaterThan(0)
    const block = page.slice(page.indexOf('\n', start) + 1, end).trim()
    expect(block).toBe(renderWalletPathsTable())
  })
})
