import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { isAppError } from '../../src/errors'
import * as registry from '../../src/registry'

const page = readFileSync(new URL('../../docs/registry.md', import.meta.url), 'utf8')

/** The first ```ts block of the page. */
function exampleSource(): string {
  const match = /```ts\n([\s\S]*?)```/.exec(page)
  if (!match?.[1]) throw new Error('docs/registry.md has no ts example')
  return match[1]
}

/** Rows of the markdown table whose header starts with `firstHeader`, as cell arrays. */
function tableRows(firstHeader: string): string[][] {
  const lines = page.split('\n')
  const start = lines.findIndex((line) => line.startsWith(`| ${firstHeader} |`))
  const rows: string[][] = []
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    )
  }
  return rows
}

const list = (items: readonly string[] | undefined) => (items?.length ? items.join(', ') : '—')

afterEach(() => registry.clearPartnerWallets())

describe('docs/registry.md', () => {
  it('runs its example and prints what the comments say', () => {
    const source = exampleSource()
    const body = source.replace(/^import[\s\S]*?from 'scope-connect'\n/m, '')
    expect(body).not.toContain('import ')
    const printed: unknown[] = []
    const console = { log: (value: unknown) => printed.push(String(value)) }
    const scope = { ...registry, isAppError, console }
    new Function(...Object.keys(scope), body)(...Object.values(scope))
    expect(printed).toEqual([
      '0',
      'Acme Wallet',
      'ETH',
      'false',
      'metamask',
      'undefined',
      'eip6963 sdk',
      'Unknown wallet "no-such-wallet"',
    ])
  })

  it('lists every wallet, in registry order, as the data says', () => {
    const rows = tableRows('id')
    expect(rows.map((row) => row[0])).toEqual(registry.supportWallets.map((w) => `\`${w.id}\``))
    for (const [i, wallet] of registry.supportWallets.entries()) {
      const standard = wallet.injected?.walletStandardName
      const injected = wallet.injected
        ? list(wallet.injected.namespaces) + (standard ? ` ("${standard}")` : '')
        : '—'
      expect(rows[i]).toEqual([
        `\`${wallet.id}\``,
        wallet.name,
        list(wallet.namespaces),
        wallet.rdns ? `\`${wallet.rdns}\`` : '—',
        injected,
        wallet.sdk ?? '—',
        wallet.phantomLink?.baseUrl ?? '—',
      ])
    }
  })

  it('lists every network, in registry order, as the data says', () => {
    const rows = tableRows('CAIP-2 id')
    expect(rows).toEqual(
      registry.supportNetworks.map((n) => [
        `\`${n.chainId}\``,
        n.name,
        `${n.nativeCurrency.symbol} (${n.nativeCurrency.decimals})`,
        n.testnet ? 'yes' : 'no',
      ]),
    )
  })
})
