export { type Coalesce, coalesce, createCoalescer } from './coalesce'
export { createEvmAdapter, type EvmAdapterOptions } from './evm'
export { MULTICALL3_ADDRESS } from './multicall3'
export {
  type ChainRegistry,
  type ChainRegistryOptions,
  createChainRegistry,
  type NetworkConfig,
} from './registry'
export { createSolanaAdapter, type SolanaAdapterOptions } from './solana'
export { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from './solana-balance'
export * from './types'
