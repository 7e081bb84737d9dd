import type { SettledTransaction } from '../../transaction/store'
import type { ConnectElementClient } from '../define'
import type { UiKit } from './toast'

/** How many settled transactions the account screen lists, newest first. */
export const HISTORY_LENGTH = 5

/**
 * The account screen's "Recent transactions", from the Client's transaction store
 * (`recentTransactions()`): outcome, short hash, explorer link; null if none (or no such method).
 */
export async function historySection(
  client: ConnectElementClient | null,
  { h, shorten, networkOf, M }: UiKit,
): Promise<HTMLElement | null> {
  let entries: readonly SettledTransaction[] = []
  try {
    entries = ((await client?.recentTransactions?.()) ?? []).slice(0, HISTORY_LENGTH)
  } catch {
    // The history is a convenience: an app's Client that fails here shows none.
  }
  if (!Array.isArray(entries) || entries.length === 0) return null
  return h(
    'section',
    { part: 'history', 'aria-label': M.recentTransactions },
    h('p', { class: 'muted' }, M.recentTransactions),
    h(
      'ul',
      {},
      ...entries.map((e) => {
        const link = h('a', { target: '_blank', rel: 'noopener noreferrer', title: e.hash })
        link.textContent = shorten(e.hash)
        if (client) {
          void networkOf(client, e.chainId).then((network) => {
            const href = explorerTransactionUrl(network?.explorerUrl, e.hash)
            if (href) link.setAttribute('href', href)
          })
        }
        return h(
          'li',
          { class: 'chip' },
          h('span', { class: 'name' }, M.transactionStage(e.outcome)),
          link,
        )
      }),
    ),
  )
}

/**
 * The explorer page of a transaction: `<explorer>/tx/<hash>`, keeping the explorer's query (Solana's
 * `?cluster=devnet`); null unless the explorer is an https URL and the hash a plain hex/base58 id.
 */
export function explorerTransactionUrl(explorer: string | undefined, hash: string): string | null {
  if (!explorer || !/^[0-9a-zA-Z]{32,128}$/.test(hash.replace(/^0x/, ''))) return null
  let url: URL
  try {
    url = new URL(explorer)
  } catch {
    return null
  }
  if (url.protocol !== 'https:' || url.username || url.password) return null
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/tx/${hash}`
  url.hash = ''
  return url.href
}
