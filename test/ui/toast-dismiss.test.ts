// @vitest-environment happy-dom-node
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Client } from '../../src/client'
import { Eip1193Connector } from '../../src/connectors/eip1193'
import {
  createBrowserTransactionStore,
  createMemoryTransactionStore,
  type TransactionStore,
} from '../../src/transaction'
import { type ConnectElement, defineConnectElements } from '../../src/ui'
import { explorerTransactionUrl } from '../../src/ui/lazy/toast'
import { useBackendWithAnvil } from '../support/backend-with-anvil'
import { createEip1193TestWallet } from '../support/eip1193-wallet'
import { ANVIL_KEY_0, revertingInitCode, rpc } from '../support/evm-transactions'

// The transaction toast goes: a dismiss button, auto-dismiss once settled (`toast-timeout`), and a
// link to the network's explorer; a real Client sends through a real key to anvil (mined by hand),
// the real backend reads the receipts and serves the project's explorer URL.

const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const EXPLORER = 'https://explorer.example'
const backend = useBackendWithAnvil({
  anvilArgs: ['--no-mining'],
  transactions: { blockPollMs: 100, timeoutMs: 1_000 },
  explorerUrl: EXPLORER,
})

afterEach(() => {
  vi.useRealTimers()
})

const parts = (element: Element) => {
  const root = element.shadowRoot
  const get = <T extends Element>(selector: string) => {
    const found = root?.querySelector<T>(selector)
    if (!found) throw new Error(`no ${selector} in the button`)
    return found
  }
  // The link and the button come with the toast's chunk, at the first transaction.
  return {
    get line() {
      return get<HTMLElement>('[part="toast"]')
    },
    get link() {
      return get<HTMLAnchorElement>('[part="toast-link"]')
    },
    get dismiss() {
      return get<HTMLButtonElement>('[part="toast-dismiss"]')
    },
  }
}

/**
 * Polls `check` every 20 ms for up to 15 s (a loaded CI machine reads receipts slower). A check
 * that throws is not yet true: the button's parts exist only once its lazy chunk has mounted it.
 */
async function until(check: () => boolean, what: string): Promise<void> {
  const holds = () => {
    try {
      return check()
    } catch {
      return false
    }
  }
  for (let i = 0; i < 750; i++) {
    if (holds()) return
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(`never: ${what}`)
}

async function setUp(
  timeout: string | null,
  store: TransactionStore = createMemoryTransactionStore(),
) {
  const wallet = await createEip1193TestWallet({
    rpcUrl: backend.anvil.rpcUrl,
    privateKeys: [ANVIL_KEY_0],
  })
  const client = new Client({
    baseUrl: backend.server.baseUrl,
    appKey: backend.server.appKey,
    connectors: [new Eip1193Connector('metamask', () => wallet)],
    mobile: false,
    transactions: { store, timeouts: { retryMs: 50 } },
  })
  defineConnectElements()
  const element = document.createElement('scope-connect-button') as ConnectElement
  if (timeout !== null) element.setAttribute('toast-timeout', timeout)
  element.client = client
  document.body.append(element)
  await client.connect()
  return { client, element, wallet }
}

async function confirmed(client: Client, element: Element) {
  const handle = await client.sendTransaction({ to: RECIPIENT, value: 1n })
  await rpc(backend.anvil.rpcUrl, 'evm_mine')
  await handle.wait()
  await until(
    () => parts(element).line.textContent?.startsWith('Transaction confirmed') === true,
    'confirmed',
  )
  return handle.hash
}

describe('the transaction toast goes', () => {
  it('links to the explorer, hides on dismiss, and shows again for the next transaction', async () => {
    const { client, element } = await setUp('0')
    const hash = await confirmed(client, element)
    const toast = parts(element)
    await until(() => !toast.link.hasAttribute('hidden'), 'the explorer link')
    expect(toast.link.getAttribute('href')).toBe(`${EXPLORER}/tx/${hash}`)
    expect(toast.link.getAttribute('rel')).toBe('noopener noreferrer')
    expect(toast.dismiss.hasAttribute('hidden')).toBe(false)
    expect(toast.dismiss.getAttribute('aria-label')).toBe('Dismiss')

    toast.dismiss.click()
    expect(toast.line.textContent).toBe('')
    expect(toast.dismiss.hasAttribute('hidden')).toBe(true)
    expect(toast.link.hasAttribute('hidden')).toBe(true)

    const next = await client.sendTransaction({ to: RECIPIENT, value: 2n })
    await until(() => toast.line.textContent?.startsWith('Transaction pending') === true, 'next')
    await until(() => toast.link.getAttribute('href') === `${EXPLORER}/tx/${next.hash}`, 'link')
    await rpc(backend.anvil.rpcUrl, 'evm_mine')
    await next.wait()
    // toast-timeout="0": the settled toast stays.
    await until(() => toast.line.textContent?.startsWith('Transaction confirmed') === true, 'c')
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    vi.advanceTimersByTime(3_600_000)
    vi.useRealTimers()
    expect(toast.line.textContent?.startsWith('Transaction confirmed')).toBe(true)
    element.remove()
  })

  it('goes by itself once confirmed, after toast-timeout, and not before', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true })
    const { client, element } = await setUp('60000')
    await confirmed(client, element)
    const toast = parts(element)
    vi.advanceTimersByTime(50_000)
    expect(toast.line.textContent?.startsWith('Transaction confirmed')).toBe(true)
    vi.advanceTimersByTime(11_000)
    expect(toast.line.textContent).toBe('')
    expect(toast.dismiss.hasAttribute('hidden')).toBe(true)
    element.remove()
  })

  it('a reverted transaction shows reverted, then goes too; a rejection goes; the next one shows', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true })
    const { client, element, wallet } = await setUp('60000')
    const toast = parts(element)
    const reverting = await client.sendTransaction({
      data: revertingInitCode('nope'),
      gas: 100_000n,
    })
    await rpc(backend.anvil.rpcUrl, 'evm_mine')
    await reverting.wait().catch(() => {})
    await until(() => toast.line.textContent?.startsWith('Transaction reverted') === true, 'r')
    vi.advanceTimersByTime(61_000)
    expect(toast.line.textContent).toBe('')

    wallet.rejectNextRequest('eth_sendTransaction')
    await expect(client.sendTransaction({ to: RECIPIENT, value: 1n })).rejects.toThrow()
    await until(() => toast.line.textContent === 'Transaction rejected', 'rejected')
    vi.advanceTimersByTime(61_000)
    expect(toast.line.textContent).toBe('')

    await confirmed(client, element)
    element.remove()
  })
})

describe('explorerTransactionUrl', () => {
  const evm = `0x${'ab'.repeat(32)}`
  const sig = '5'.repeat(87)
  it('is <explorer>/tx/<hash>, keeping the explorer query (Solana clusters)', () => {
    expect(explorerTransactionUrl('https://etherscan.io', evm)).toBe(
      `https://etherscan.io/tx/${evm}`,
    )
    expect(explorerTransactionUrl('https://scan.example/base/', evm)).toBe(
      `https://scan.example/base/tx/${evm}`,
    )
    expect(explorerTransactionUrl('https://explorer.solana.com/?cluster=devnet', sig)).toBe(
      `https://explorer.solana.com/tx/${sig}?cluster=devnet`,
    )
  })
  it('is null for an explorer that is not https, or a hash that is not an id', () => {
    expect(explorerTransactionUrl(undefined, evm)).toBeNull()
    expect(explorerTransactionUrl('http://etherscan.io', evm)).toBeNull()
    expect(explorerTransactionUrl('javascript:alert(1)//', evm)).toBeNull()
    expect(explorerTransactionUrl('not a url', evm)).toBeNull()
    expect(explorerTransactionUrl('https://user:pw@etherscan.io', evm)).toBeNull()
    expect(explorerTransactionUrl('https://etherscan.io', '0x1234/../../x')).toBeNull()
  })
})

describe('"Recent transactions" in the account screen', () => {
  const historyOf = (element: Element) =>
    element.shadowRoot
      ?.querySelector('scope-connect-modal')
      ?.shadowRoot?.querySelector<HTMLElement>('[part="history"]') ?? null

  /** Polls the Client's history (written when the transaction child settles) for up to 15 s. */
  async function historyLength(client: Client, length: number): Promise<void> {
    for (let i = 0; i < 750; i++) {
      if ((await client.recentTransactions()).length === length) return
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    throw new Error(`never ${length} settled transactions`)
  }

  it("lists the transaction store's settled transactions, newest first, with explorer links, also after a reload", async () => {
    const key = 'test:toast-history'
    localStorage.removeItem(`${key}:history`)
    const first = await setUp('0', createBrowserTransactionStore(key))
    const confirmedHash = await confirmed(first.client, first.element)
    const reverting = await first.client.sendTransaction({
      data: revertingInitCode('nope'),
      gas: 100_000n,
    })
    await rpc(backend.anvil.rpcUrl, 'evm_mine')
    await reverting.wait().catch(() => {})
    await historyLength(first.client, 2)
    first.element.remove()

    // A reload: a new Client and button over the same storage.
    const second = await setUp('0', createBrowserTransactionStore(key))
    expect((await second.client.recentTransactions()).map((t) => [t.hash, t.outcome])).toEqual([
      [reverting.hash, 'reverted'],
      [confirmedHash, 'confirmed'],
    ])
    second.element.open()
    await until(() => historyOf(second.element)?.querySelectorAll('li').length === 2, 'history')
    const items = [...(historyOf(second.element)?.querySelectorAll('li') ?? [])]
    expect(items.map((li) => li.querySelector('.name')?.textContent)).toEqual([
      'reverted',
      'confirmed',
    ])
    const links = items.map((li) => li.querySelector('a'))
    await until(() => links.every((a) => a?.hasAttribute('href')), 'history links')
    expect(links.map((a) => a?.getAttribute('href'))).toEqual([
      `${EXPLORER}/tx/${reverting.hash}`,
      `${EXPLORER}/tx/${confirmedHash}`,
    ])
    second.element.remove()
    localStorage.removeItem(`${key}:history`)
  })

  it('a garbage stored history shows none; the next settled transaction is listed', async () => {
    const key = 'test:toast-garbage'
    localStorage.setItem(`${key}:history`, '{"format":"scope-connect/transaction-history"')
    const { client, element } = await setUp('0', createBrowserTransactionStore(key))
    expect(await client.recentTransactions()).toEqual([])
    element.open()
    const modal = element.shadowRoot?.querySelector('scope-connect-modal')
    await until(() => modal?.shadowRoot?.querySelector('dl') != null, 'the account screen')
    expect(historyOf(element)).toBeNull()
    element.close()
    const hash = await confirmed(client, element)
    await historyLength(client, 1)
    element.open()
    await until(() => historyOf(element)?.querySelector('a')?.title === hash, 'listed')
    element.remove()
    localStorage.removeItem(`${key}:history`)
  })

  /** The memory store without its history: a plain `RecordStore<TransactionRecord>`. */
  const withoutHistory = (): TransactionStore => {
    const { history: _, ...plain } = createMemoryTransactionStore()
    return plain
  }

  it('a store without a history (a plain RecordStore) lists nothing and still sends', async () => {
    const { client, element } = await setUp('0', withoutHistory())
    await confirmed(client, element)
    expect(await client.recentTransactions()).toEqual([])
    element.remove()
  })

  it("a history that throws (an app's store) lists nothing, and the transactions still settle", async () => {
    const throwing: TransactionStore = {
      ...withoutHistory(),
      history: {
        save() {
          throw new Error('quota')
        },
        load() {
          throw new TypeError('broken store')
        },
        clear() {},
      },
    }
    const { client, element } = await setUp('0', throwing)
    await confirmed(client, element)
    expect(await client.recentTransactions()).toEqual([])
    await confirmed(client, element)
    element.remove()
  })
})
