import { AppError } from '../errors/app-error'
import { deepFreeze } from './freeze'
import type { ChainNamespace, NetworkInfo } from './types'

// Checked by hand, not with zod: the registry is in the `Client` entry and zod/mini is not.
/** The chains the library connects to: `eip155:<decimal>`, `solana:<base58 genesis prefix>`. */
const CHAIN_ID = /^(eip155:[1-9][0-9]{0,15}|solana:[1-9A-HJ-NP-Za-km-z]{32})$/
const URL_PATTERN = /^https?:\/\/[^\s/?#]+\S*$/

const text = (value: unknown, max: number): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= max

/** The first field of `entry` that is not valid, else `undefined`. */
function invalidField(entry: unknown): string | undefined {
  if (entry === null || typeof entry !== 'object') return '(entry)'
  const e = entry as Record<string, unknown>
  if (typeof e.chainId !== 'string' || !CHAIN_ID.test(e.chainId)) return 'chainId'
  if (!text(e.name, 200)) return 'name'
  const currency = e.nativeCurrency as Record<string, unknown> | null | undefined
  if (currency === null || typeof currency !== 'object') return 'nativeCurrency'
  if (!text(currency.name, 200)) return 'nativeCurrency.name'
  if (!text(currency.symbol, 16)) return 'nativeCurrency.symbol'
  const decimals = currency.decimals
  if (!Number.isInteger(decimals) || (decimals as number) < 0 || (decimals as number) > 255)
    return 'nativeCurrency.decimals'
  if (e.testnet !== undefined && typeof e.testnet !== 'boolean') return 'testnet'
  if (
    e.blockExplorerUrl !== undefined &&
    !(text(e.blockExplorerUrl, 2048) && URL_PATTERN.test(e.blockExplorerUrl))
  )
    return 'blockExplorerUrl'
  const urls = e.rpcUrls
  if (
    urls !== undefined &&
    !(
      Array.isArray(urls) &&
      urls.length <= 8 &&
      urls.every((url) => text(url, 2048) && URL_PATTERN.test(url))
    )
  )
    return 'rpcUrls'
  if (
    e.multicall3 !== undefined &&
    !(typeof e.multicall3 === 'string' && /^0x[0-9a-fA-F]{40}$/.test(e.multicall3))
  )
    return 'multicall3'
  return undefined
}

/** A checked entry as the registry keeps it: namespace and reference from its id, frozen. */
export function networkEntry(entry: NetworkInfo, at: string): NetworkInfo {
  const field = invalidField(entry)
  if (field !== undefined)
    throw new AppError('INVALID_CONFIG', `${at} is not a valid network (${field}).`)
  const [namespace, reference] = entry.chainId.split(':') as [ChainNamespace, string]
  const { name, symbol, decimals } = entry.nativeCurrency
  return deepFreeze({
    chainId: entry.chainId,
    namespace,
    reference,
    name: entry.name,
    nativeCurrency: { name, symbol, decimals },
    testnet: entry.testnet ?? false,
    ...(entry.blockExplorerUrl === undefined ? {} : { blockExplorerUrl: entry.blockExplorerUrl }),
    ...(entry.rpcUrls === undefined ? {} : { rpcUrls: [...entry.rpcUrls] }),
    ...(entry.multicall3 === undefined ? {} : { multicall3: entry.multicall3 }),
  })
}

const registered = new Map<string, NetworkInfo>()

/**
 * Adds networks to the registry (from `defineNetwork`, or `NetworkInfo` objects), after which every
 * lookup (`getNetworkInfo`, `listSupportedNetworks`, `getNetworksForWallet`, `switchChain`'s
 * `wallet_addEthereumChain`, the modal) answers for them. Merge rule: a registered network replaces
 * a built-in network with the same id (the dApp's own RPC URLs or name win), and registering an id
 * again replaces the earlier entry (so the Client option `networks`, applied after a project's
 * config, wins). All entries are checked before any is added. Returns the frozen entries.
 * @throws AppError `INVALID_CONFIG` for an entry that is not a valid network (the field named:
 * `chainId` not `eip155:<decimal>` or `solana:<genesis-hash prefix>`, `name`, `nativeCurrency`,
 * `rpcUrls` not http(s) URLs…).
 */
export function registerNetworks(networks: readonly NetworkInfo[]): NetworkInfo[] {
  if (!Array.isArray(networks))
    throw new AppError('INVALID_CONFIG', 'networks must be an array of networks.')
  const checked = networks.map((network, index) => networkEntry(network, `networks[${index}]`))
  for (const network of checked) registered.set(network.chainId, network)
  return checked
}

/**
 * Removes registered networks: the given ids, or every one when called with no argument (tests, a
 * project switch). Built-in networks are never removed.
 */
export function clearNetworks(chainIds?: readonly string[]): void {
  if (chainIds === undefined) registered.clear()
  else if (Array.isArray(chainIds)) for (const id of chainIds) registered.delete(id)
}

/** A registered network by id (internal). */
export const registeredNetwork = (chainId: string): NetworkInfo | undefined =>
  registered.get(chainId)

/** The registered networks in registration order (internal). */
export const registeredNetworks = (): NetworkInfo[] => [...registered.values()]
