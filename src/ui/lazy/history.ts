import type { TransactionView } from '../../../machines/transaction/transaction.view'
import type { ConnectElementClient } from '../define'
import type { UiKit } from './toast'

/** The localStorage key of the elements' recent transactions. */
export const HISTORY_STORAGE_KEY = 'scope-connect:ui-transactions'
/** How many settled transactions the account screen lists, newest first. */
export const HISTORY_LENGTH = 5
const VERSION = 1

/** A settled transaction as the account screen lists it. */
export interface HistoryEntry {
  chainId: string
  hash: string
  stage: string
  at: number
}

const isEntry = (value: unknown): value is HistoryEntry => {
  if (typeof value !== 'object' || value === null) return false
  const e = value as Record<string, unknown>
  return (
    typeof e.chainId === 'string' &&
    /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/.test(e.chainId) &&
    typeof e.hash === 'string' &&
    /^(0x)?[0-9a-zA-Z]{32,128}$/.test(e.hash) &&
    typeof e.stage === 'string' &&
    /^[a-z]{1,16}$/.test(e.stage) &&
    typeof e.at === 'number' &&
    Number.isFinite(e.at)
  )
}

/** The stored history, newest first; a garbage record or entry is dropped, never thrown. */
export function readHistory(): HistoryEntry[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(HISTORY_STORAGE_KEY) ?? 'null')
    if (typeof stored !== 'object' || stored === null) return []
    const { v, entries } = stored as { v?: unknown; entries?: unknown }
    if (v !== VERSION || !Array.isArray(entries)) return []
    return entries
      .filter(isEntry)
      .map(({ chainId, hash, stage, at }) => ({ chainId, hash, stage, at }))
      .slice(0, HISTORY_LENGTH)
  } catch {
    return []
  }
}

/** Keeps a settled transaction (with a hash) first in the history; no storage: nothing kept. */
export function rememberTransaction(t: TransactionView, at = Date.now()): void {
  if (t.isActive || !t.hash) return
  const entry = { chainId: t.chainId, hash: t.hash, stage: t.stage, at }
  if (!isEntry(entry)) return
  const entries = [entry, ...readHistory().filter((e) => e.hash !== entry.hash)]
  try {
    localStorage.setItem(
      HISTORY_STORAGE_KEY,
      JSON.stringify({ v: VERSION, entries: entries.slice(0, HISTORY_LENGTH) }),
    )
  } catch {
    // Storage full or refused: the history is a convenience.
  }
}

/** The account screen's "Recent transactions": stage, short hash, explorer link; null if none. */
export function historySection(
  client: ConnectElementClient | null,
  { h, shorten, networkOf, M }: UiKit,
): HTMLElement | null {
  const entries = readHistory()
  if (entries.length === 0) return null
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
          h('span', { class: 'name' }, M.transactionStage(e.stage)),
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
