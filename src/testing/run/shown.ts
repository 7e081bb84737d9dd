import type { ClientView } from '../../../machines/client/client.view'
import type { TransactionStage } from '../../../machines/transaction/transaction.view'
import type { Client } from '../../client/client'
import { API_PREFIX, ROUTES } from '../../wire/routes'

/**
 * The opt-in check of what the app SHOWS beside the Client's view (`RunClientPathOptions.expectShown`):
 * each reader maps the app's UI to a value; after every step the run compares it with the world.
 */
export interface ShownReaders {
  /**
   * The native balance the app shows for the connected account, in base units (a bigint or its
   * decimal string), or null when it shows none. Connected, it must equal what the backend answers
   * for the view's account and chain (`GET /balances`); not connected, it must be null.
   */
  balance?(client: Client): bigint | string | null | Promise<bigint | string | null>
  /**
   * The stage the app's transaction toast shows, or null when it shows none. It must equal the
   * view's `transaction.stage`; null is accepted once the transaction settled (a dismissed toast).
   */
  toast?(client: Client): TransactionStage | null | Promise<TransactionStage | null>
}

/** Where the run reads the world's balance. */
export interface ShownWorld {
  baseUrl: string
  appKey: string
  fetchImpl: typeof fetch
}

/** The backend's native balance of the view's account (base units), or null when not connected. */
async function worldBalance(view: ClientView, world: ShownWorld): Promise<bigint | null> {
  if (!view.isConnected || view.address === null || view.chainId === null) return null
  const query = new URLSearchParams({
    chainId: view.chainId,
    tokenAddress: 'native',
    account: view.address,
  })
  const response = await world.fetchImpl(
    `${world.baseUrl}${API_PREFIX}${ROUTES.balances}?${query}`,
    { headers: { 'x-app-key': world.appKey } },
  )
  if (!response.ok) throw new Error(`the backend answered GET /balances ${response.status}`)
  const body = (await response.json()) as { raw?: unknown }
  return BigInt(String(body.raw))
}

const asBigInt = (value: bigint | string | null): bigint | null | 'garbage' => {
  if (value === null || value === undefined) return null
  try {
    return BigInt(value)
  } catch {
    return 'garbage'
  }
}

/**
 * What the app shows against the world, once: the mismatches in words (empty when it agrees).
 * The run retries it until the app catches up or `settleMs` passes.
 */
export async function shownDifferences(
  readers: ShownReaders,
  client: Client,
  world: ShownWorld,
): Promise<string[]> {
  const view = client.getView()
  const differences: string[] = []
  if (readers.balance) {
    const shown = asBigInt(await readers.balance(client))
    const expected = await worldBalance(view, world)
    if (shown !== expected) {
      const where = view.isConnected ? ` for ${view.address} on ${view.chainId}` : ''
      differences.push(
        `the app shows the balance ${String(shown)}${where}, the backend answers ${String(expected)}`,
      )
    }
  }
  if (readers.toast) {
    const shown = await readers.toast(client)
    const transaction = view.transaction
    const expected = transaction?.stage ?? null
    const dismissed = shown === null && transaction !== null && !transaction.isActive
    if (shown !== expected && !dismissed)
      differences.push(
        `the app's transaction toast shows ${String(shown)}, the transaction is ${String(expected)}`,
      )
  }
  return differences
}
