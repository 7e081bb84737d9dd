import { checkDecimals } from './decimals'
import { isSolanaAddress } from './solana-address'
import { contextSlot, parseAmount, type SolanaRpc } from './solana-rpc'
import {
  type BalanceReadRequest,
  type BalanceReadResult,
  ChainInputError,
  noRpcUrl,
  UpstreamError,
} from './types'

export const TOKEN_PROGRAM_ID = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
export const TOKEN_2022_PROGRAM_ID = 'TokenzQdBNbLqP5VEhdkAS6EPFLuoJz8ku1Ayp9wvFu6'
const TOKEN_PROGRAMS = [TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID]
const NATIVE_DECIMALS = 9

interface Context<T> {
  context: { slot: number }
  value: T
}

interface ParsedTokenAccount {
  account: {
    data: {
      parsed?: { info?: { mint?: string; tokenAmount?: { amount?: string; decimals?: number } } }
    }
  }
}

interface ParsedMint {
  owner: string
  data: { parsed?: { type?: string; info?: { decimals?: number } } }
}

/** Lamports via getBalance, SPL tokens by summing the owner's accounts for the mint. */
export async function readSolanaBalance(
  rpc: SolanaRpc | undefined,
  request: BalanceReadRequest,
): Promise<BalanceReadResult> {
  if (!isSolanaAddress(request.account)) {
    throw new ChainInputError(`account is not a valid Solana address: ${String(request.account)}`)
  }
  const mint = request.tokenAddress === 'native' ? undefined : request.tokenAddress
  if (mint !== undefined && !isSolanaAddress(mint)) {
    throw new ChainInputError(`tokenAddress is not a valid Solana mint: ${String(mint)}`)
  }
  const decimals = checkDecimals(request.decimals)
  if (!rpc) {
    throw noRpcUrl(request.chainId)
  }
  if (!mint) {
    const { context, value } = await rpc<Context<number>>('getBalance', [request.account])
    return {
      raw: parseAmount(value),
      decimals: decimals ?? NATIVE_DECIMALS,
      blockNumber: BigInt(contextSlot(context)),
    }
  }
  return readSplBalance(rpc, request.account, mint, decimals)
}

/**
 * A mint lives under either the Token or the Token-2022 program; asking both by program id keeps
 * the reader correct whichever it is. Both reads run at once, so the slot reported is the older
 * of the two: the figure is at least that fresh.
 */
async function readSplBalance(
  rpc: SolanaRpc,
  owner: string,
  mint: string,
  decimals: number | undefined,
): Promise<BalanceReadResult> {
  const pages = await Promise.all(
    TOKEN_PROGRAMS.map((programId) =>
      rpc<Context<ParsedTokenAccount[]>>('getTokenAccountsByOwner', [
        owner,
        { programId },
        { encoding: 'jsonParsed' },
      ]),
    ),
  )
  let raw = 0n
  let parsedDecimals: number | undefined
  for (const page of pages) {
    if (!Array.isArray(page.value)) throw new UpstreamError('getTokenAccountsByOwner: bad value')
    for (const entry of page.value) {
      const info = entry.account?.data?.parsed?.info
      if (info?.mint !== mint) continue
      raw += parseAmount(info.tokenAmount?.amount)
      parsedDecimals ??= info.tokenAmount?.decimals
    }
  }
  const blockNumber = BigInt(Math.min(...pages.map((page) => contextSlot(page.context))))
  const resolved = decimals ?? parsedDecimals ?? (await readMintDecimals(rpc, mint))
  return { raw, decimals: resolved, blockNumber }
}

/** An owner without an account for the mint still gets decimals, from the mint itself. */
async function readMintDecimals(rpc: SolanaRpc, mint: string): Promise<number> {
  const { value } = await rpc<Context<ParsedMint | null>>('getAccountInfo', [
    mint,
    { encoding: 'jsonParsed' },
  ])
  // A missing or non-token account is the caller's mistake, not the node's.
  if (!value || !TOKEN_PROGRAMS.includes(value.owner) || value.data?.parsed?.type !== 'mint') {
    throw new ChainInputError(`tokenAddress is not an SPL token mint: ${mint}`)
  }
  const found = value.data.parsed.info?.decimals
  if (typeof found !== 'number') throw new UpstreamError(`mint ${mint} has no parsed decimals`)
  return found
}
