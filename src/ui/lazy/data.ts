import { readBefore } from '../../balance/settled'
import type { ConnectConfig, ConnectConfigNetwork } from '../../config'
import type { ConnectElementClient } from '../define'
import { formatUnits } from './format'

/** How long a balance shown by the elements is reused before it is read again. */
const BALANCE_TTL_MS = 15_000

// One config read per Client, and one balance read per account and chain at a time, shared by
// every element of the page (the button and its modal show the same figures).
const configs = /* @__PURE__ */ new WeakMap<ConnectElementClient, Promise<ConnectConfig | null>>()
/** A balance shown: when it was asked, its text, and the block it was read at once answered. */
interface BalanceEntry {
  at: number
  value: Promise<string | null>
  block?: bigint | undefined
}
const balances = /* @__PURE__ */ new Map<string, BalanceEntry>()

/** The project's config (`client.loadConfig()`, once); null when it cannot be read. */
export function projectConfig(client: ConnectElementClient): Promise<ConnectConfig | null> {
  let config = configs.get(client)
  if (!config) {
    config = client.loadConfig().catch(() => {
      configs.delete(client) // try again next time
      return null
    })
    configs.set(client, config)
  }
  return config
}

/** The project's network `chainId`, if enabled. */
export async function networkOf(
  client: ConnectElementClient,
  chainId: string,
): Promise<ConnectConfigNetwork | undefined> {
  return (await projectConfig(client))?.networks.find((network) => network.networkId === chainId)
}

/**
 * The account's native balance, formatted with its symbol (`9999.9876 ETH`), or null when it cannot
 * be read (the chain's RPC is down, the network is not the project's). `settled`: a receipt's block
 * on this chain; a balance in hand read before it is read again.
 */
export function nativeBalance(
  client: ConnectElementClient,
  chainId: string,
  account: string,
  settled?: bigint,
): Promise<string | null> {
  const key = `${chainId}/${account}`
  const cached = balances.get(key)
  if (
    cached &&
    Date.now() - cached.at < BALANCE_TTL_MS &&
    (settled === undefined || !readBefore(cached.block, settled))
  ) {
    return cached.value
  }
  const entry: BalanceEntry = { at: Date.now(), value: Promise.resolve(null) }
  entry.value = (async () => {
    const network = await networkOf(client, chainId)
    const balance = await client.getBalance({
      chainId,
      tokenAddress: 'native',
      account,
    })
    entry.block = balance.blockNumber
    return `${formatUnits(balance.raw, balance.decimals)} ${network?.nativeCurrency.symbol ?? ''}`.trim()
  })().catch(() => null)
  balances.set(key, entry)
  return entry.value
}
