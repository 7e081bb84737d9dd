import { deepFreeze } from './freeze'
import type { NativeCurrency, NetworkInfo } from './types'

const ETHER: NativeCurrency = { name: 'Ether', symbol: 'ETH', decimals: 18 }
const SEPOLIA_ETHER: NativeCurrency = { name: 'Sepolia Ether', symbol: 'ETH', decimals: 18 }
const SOL: NativeCurrency = { name: 'Solana', symbol: 'SOL', decimals: 9 }

/**
 * The built-in networks, in document order (mainnets first, then their testnets, then local); the
 * EVM ones' `rpcUrls` are viem's default public endpoints. Frozen: prefer the lookup functions (`listSupportedNetworks`, `getNetworkInfo`).
 */
export const supportNetworks: readonly NetworkInfo[] = /* @__PURE__ */ deepFreeze([
  {
    chainId: 'eip155:1',
    namespace: 'eip155',
    reference: '1',
    name: 'Ethereum',
    nativeCurrency: ETHER,
    testnet: false,
    blockExplorerUrl: 'https://etherscan.io',
    rpcUrls: ['https://ethereum.reth.rs/rpc'],
  },
  {
    chainId: 'eip155:8453',
    namespace: 'eip155',
    reference: '8453',
    name: 'Base',
    nativeCurrency: ETHER,
    testnet: false,
    blockExplorerUrl: 'https://basescan.org',
    rpcUrls: ['https://mainnet.base.org'],
  },
  {
    chainId: 'eip155:42161',
    namespace: 'eip155',
    reference: '42161',
    name: 'Arbitrum One',
    nativeCurrency: ETHER,
    testnet: false,
    blockExplorerUrl: 'https://arbiscan.io',
    rpcUrls: ['https://arb1.arbitrum.io/rpc'],
  },
  {
    chainId: 'eip155:10',
    namespace: 'eip155',
    reference: '10',
    name: 'OP Mainnet',
    nativeCurrency: ETHER,
    testnet: false,
    blockExplorerUrl: 'https://optimistic.etherscan.io',
    rpcUrls: ['https://mainnet.optimism.io'],
  },
  {
    chainId: 'eip155:137',
    namespace: 'eip155',
    reference: '137',
    name: 'Polygon',
    // MATIC was renamed POL in September 2024.
    nativeCurrency: { name: 'POL', symbol: 'POL', decimals: 18 },
    testnet: false,
    blockExplorerUrl: 'https://polygonscan.com',
    rpcUrls: ['https://polygon.drpc.org'],
  },
  {
    chainId: 'eip155:56',
    namespace: 'eip155',
    reference: '56',
    name: 'BNB Smart Chain',
    nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
    testnet: false,
    blockExplorerUrl: 'https://bscscan.com',
    rpcUrls: ['https://56.rpc.thirdweb.com'],
  },
  {
    chainId: 'eip155:43114',
    namespace: 'eip155',
    reference: '43114',
    name: 'Avalanche C-Chain',
    nativeCurrency: { name: 'Avalanche', symbol: 'AVAX', decimals: 18 },
    testnet: false,
    blockExplorerUrl: 'https://snowtrace.io',
    rpcUrls: ['https://api.avax.network/ext/bc/C/rpc'],
  },
  {
    chainId: 'eip155:11155111',
    namespace: 'eip155',
    reference: '11155111',
    name: 'Sepolia',
    nativeCurrency: SEPOLIA_ETHER,
    testnet: true,
    blockExplorerUrl: 'https://sepolia.etherscan.io',
    rpcUrls: ['https://11155111.rpc.thirdweb.com'],
  },
  {
    chainId: 'eip155:84532',
    namespace: 'eip155',
    reference: '84532',
    name: 'Base Sepolia',
    nativeCurrency: SEPOLIA_ETHER,
    testnet: true,
    blockExplorerUrl: 'https://sepolia.basescan.org',
    rpcUrls: ['https://sepolia.base.org'],
  },
  {
    // Anvil and Hardhat both default to 31337; used by local development and the e2e tests.
    chainId: 'eip155:31337',
    namespace: 'eip155',
    reference: '31337',
    name: 'Anvil / Hardhat (local)',
    nativeCurrency: ETHER,
    testnet: true,
    rpcUrls: ['http://127.0.0.1:8545'],
  },
  {
    chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
    namespace: 'solana',
    reference: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
    name: 'Solana',
    nativeCurrency: SOL,
    testnet: false,
    blockExplorerUrl: 'https://explorer.solana.com',
  },
  {
    chainId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
    namespace: 'solana',
    reference: 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
    name: 'Solana Devnet',
    nativeCurrency: SOL,
    testnet: true,
    blockExplorerUrl: 'https://explorer.solana.com/?cluster=devnet',
  },
  {
    chainId: 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z',
    namespace: 'solana',
    reference: '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z',
    name: 'Solana Testnet',
    nativeCurrency: SOL,
    testnet: true,
    blockExplorerUrl: 'https://explorer.solana.com/?cluster=testnet',
  },
])
