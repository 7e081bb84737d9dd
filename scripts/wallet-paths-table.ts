// Prints the wallet × platform table of docs/connectors.md ("Which path each wallet takes") from
// the registry and `walletPaths`; test/registry/paths-table.test.ts checks the page holds it.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { walletPaths } from '../src/connectors/connector-kind'
import { supportWallets } from '../src/registry/wallets'

const NAMES = { eip155: 'EVM', solana: 'Solana' } as const

/** The markdown table: one row per built-in wallet, the paths of each namespace, best first. */
export function renderWalletPathsTable(): string {
  const cell = (
    wallet: (typeof supportWallets)[number],
    platform: 'desktop' | 'phone' | 'in-app',
  ) =>
    wallet.namespaces
      .map((namespace) => {
        const paths = walletPaths(wallet, namespace, platform)
        return `${NAMES[namespace]}: ${paths.length === 0 ? '—' : paths.map((p) => `\`${p}\``).join(' → ')}`
      })
      .join('<br>')
  const rows = supportWallets.map(
    (wallet) =>
      `| ${wallet.name} | ${cell(wallet, 'desktop')} | ${cell(wallet, 'phone')} | ${cell(wallet, 'in-app')} |`,
  )
  return [
    '| Wallet | Desktop | Phone browser | In-app browser |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n')
}

/** docs/connectors.md with its table replaced by the current one. */
export function withCurrentTable(page: string): string {
  const start = page.indexOf('\n', page.indexOf('<!-- wallet-paths-table')) + 1
  const end = page.indexOf('<!-- /wallet-paths-table -->')
  return `${page.slice(0, start)}${renderWalletPathsTable()}\n${page.slice(end)}`
}

// `npx tsx scripts/wallet-paths-table.ts` rewrites the table in docs/connectors.md.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const path = join(import.meta.dirname, '../docs/connectors.md')
  writeFileSync(path, withCurrentTable(readFileSync(path, 'utf8')))
}
