import { checkDecimals } from './decimals'
import { readBatch } from './read-batch'
import { isSolanaAddress } from './solana-address'
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from './solana-balance'
import { contextSlot, parseAmount, type SolanaRpc } from './solana-rpc'
import {
  type BalanceOutcome,
  type BalanceReadRequest,
  ChainInputError,
  noRpcUrl,
  UpstreamError,
} from './types'

const NATIVE_DECIMALS = 9
/** getMultipleAccounts takes at most 100 addresses per call. */
const ACCOUNTS_PER_CALL = 100
const TOKEN_PROGRAMS = [TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID]

interface Context<T> {
  context: { slot: number }
  value: T
}

interface ParsedAccount {
  lamports?: unknown
  owner?: string
  data?: { parsed?: { type?: string; info?: { decimals?: number } } } | unknown[]
}

interface ParsedTokenAccount {
  account?: {
    data?: {
      parsed?: { info?: { mint?: string; tokenAmount?: { amount?: string; decimals?: number } } }
    }
  }
}

interface Planned {
  account: string
  mint: string | undefined
  decimals: number | undefined
}

/**
 * A batch of Solana balances in as few calls as the JSON-RPC API has: one `getMultipleAccounts`
 * for every native account and every mint asked about (per 100 addresses), and two
 * `getTokenAccountsByOwner` per distinct owner of SPL queries (Token and Token-2022), all at once.
 * Each item reports the oldest slot among the answers it was read from.
 */
export async function readSolanaBalances(
  rpc: SolanaRpc | undefined,
  chainId: string,
  requests: readonly BalanceReadRequest[],
): Promise<BalanceOutcome[]> {
  return readBatch(
    requests,
    plan,
    async (live) => {
      if (!rpc) {
        throw noRpcUrl(chainId)
      }
      const state = await readState(rpc, live)
      return (item) => answer(item, state)
    },
    (error) =>
      error instanceof UpstreamError || error instanceof ChainInputError
        ? error
        : new UpstreamError(`Solana RPC read failed: ${String(error)}`, { cause: error }),
  )
}

/**
 * The upstream calls `readSolanaBalances(requests)` makes: one `getMultipleAccounts` per 100
 * addresses (native accounts and mints), and two `getTokenAccountsByOwner` (Token, Token-2022) per
 * distinct owner of SPL queries; malformed queries cost none.
 */
export function solanaUpstreamCalls(requests: readonly BalanceReadRequest[]): number {
  const items: Planned[] = []
  for (const request of requests) {
    try {
      items.push(plan(request))
    } catch {
      // A malformed query is answered without the node.
    }
  }
  const { addresses, owners } = addressesOf(items)
  return Math.ceil(addresses.length / ACCOUNTS_PER_CALL) + owners.length * TOKEN_PROGRAMS.length
}

function addressesOf(items: readonly Planned[]) {
  const addresses = [
    ...new Set(items.flatMap((item) => (item.mint ? [item.mint] : [item.account]))),
  ]
  const owners = [...new Set(items.filter((item) => item.mint).map((item) => item.account))]
  return { addresses, owners }
}

interface ChainState {
  accounts: Map<string, { account: ParsedAccount | null; slot: number }>
  /** owner → mint → summed amount, the token decimals, the oldest slot of its two pages */
  holdings: Map<string, { byMint: Map<string, { raw: bigint; decimals?: number }>; slot: number }>
}

async function readState(rpc: SolanaRpc, items: readonly Planned[]): Promise<ChainState> {
  const { addresses, owners } = addressesOf(items)
  const chunks: string[][] = []
  for (let i = 0; i < addresses.length; i += ACCOUNTS_PER_CALL) {
    chunks.push(addresses.slice(i, i + ACCOUNTS_PER_CALL))
  }
  const [accountPages, holdingPages] = await Promise.all([
    Promise.all(
      chunks.map((chunk) =>
        rpc<Context<(ParsedAccount | null)[]>>('getMultipleAccounts', [
          chunk,
          { encoding: 'jsonParsed' },
        ]),
      ),
    ),
    Promise.all(owners.map((owner) => readHoldings(rpc, owner))),
  ])
  const accounts: ChainState['accounts'] = new Map()
  accountPages.forEach((page, index) => {
    const chunk = chunks[index]!
    if (!Array.isArray(page.value) || page.value.length !== chunk.length) {
      throw new UpstreamError('getMultipleAccounts: bad value')
    }
    const at = contextSlot(page.context)
    chunk.forEach((address, i) => {
      accounts.set(address, { account: page.value[i] ?? null, slot: at })
    })
  })
  return { accounts, holdings: new Map(owners.map((owner, i) => [owner, holdingPages[i]!])) }
}

async function readHoldings(rpc: SolanaRpc, owner: string) {
  const pages = await Promise.all(
    TOKEN_PROGRAMS.map((programId) =>
      rpc<Context<ParsedTokenAccount[]>>('getTokenAccountsByOwner', [
        owner,
        { programId },
        { encoding: 'jsonParsed' },
      ]),
    ),
  )
  const byMint = new Map<string, { raw: bigint; decimals?: number }>()
  for (const page of pages) {
    if (!Array.isArray(page.value)) throw new UpstreamError('getTokenAccountsByOwner: bad value')
    for (const entry of page.value) {
      const info = entry.account?.data?.parsed?.info
      if (!info?.mint) continue
      const held = byMint.get(info.mint) ?? { raw: 0n }
      held.raw += parseAmount(info.tokenAmount?.amount)
      held.decimals ??= info.tokenAmount?.decimals
      byMint.set(info.mint, held)
    }
  }
  return { byMint, slot: Math.min(...pages.map((page) => contextSlot(page.context))) }
}

function answer(item: Planned, state: ChainState): BalanceOutcome {
  try {
    if (!item.mint) {
      const { account, slot: at } = state.accounts.get(item.account)!
      return {
        ok: true,
        result: {
          raw: account ? parseAmount(account.lamports) : 0n,
          decimals: item.decimals ?? NATIVE_DECIMALS,
          blockNumber: BigInt(at),
        },
      }
    }
    const holdings = state.holdings.get(item.account)!
    const held = holdings.byMint.get(item.mint)
    const mint = state.accounts.get(item.mint)!
    const decimals = item.decimals ?? held?.decimals ?? mintDecimals(mint.account, item.mint)
    return {
      ok: true,
      result: {
        raw: held?.raw ?? 0n,
        decimals,
        blockNumber: BigInt(Math.min(holdings.slot, mint.slot)),
      },
    }
  } catch (error) {
    if (error instanceof ChainInputError || error instanceof UpstreamError)
      return { ok: false, error }
    throw error
  }
}

/** A missing or non-token account is the caller's mistake, not the node's. */
function mintDecimals(account: ParsedAccount | null, mint: string): number {
  const data = account?.data
  const parsed = data && !Array.isArray(data) ? data.parsed : undefined
  if (!account?.owner || !TOKEN_PROGRAMS.includes(account.owner) || parsed?.type !== 'mint') {
    throw new ChainInputError(`tokenAddress is not an SPL token mint: ${mint}`)
  }
  const found = parsed.info?.decimals
  if (typeof found !== 'number') throw new UpstreamError(`mint ${mint} has no parsed decimals`)
  return found
}

function plan(request: BalanceReadRequest): Planned {
  if (!isSolanaAddress(request.account)) {
    throw new ChainInputError(`account is not a valid Solana address: ${String(request.account)}`)
  }
  const mint = request.tokenAddress === 'native' ? undefined : request.tokenAddress
  if (mint !== undefined && !isSolanaAddress(mint)) {
    throw new ChainInputError(`tokenAddress is not a valid Solana mint: ${String(mint)}`)
  }
  return { account: request.account, mint, decimals: checkDecimals(request.decimals) }
}
