import type { Caip2ChainId } from './types'

/** Solana mainnet-beta (CAIP-2): the default chain of Solana connections and pairings. */
export const SOLANA_MAINNET_CHAIN_ID: Caip2ChainId = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
