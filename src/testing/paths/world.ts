import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { privateKeyToAccount } from 'viem/accounts'
import type { ClientTimeouts } from '../../../machines/client/client.types'
import { SOLANA_MAINNET_CHAIN_ID } from '../../registry/chain-ids'
import { TEST_EVM_KEYS, TEST_SOLANA_KEYS } from '../doubles/keys'
import { TEST_PARTNER_WALLET_ID } from '../doubles/partner-wallet'

/** What the paths are generated for: the wallet a path selects and what it reports. */
export interface ClientPathWorld {
  walletId: string
  namespace: 'eip155'
  /** The wallet's accounts, the active one first (a change of account rotates them). */
  accounts: readonly string[]
  /** CAIP-2 chains the wallet can be on, the current one first (a change of chain moves on). */
  chains: readonly string[]
  /**
   * A chain the wallet does not know and the network registry does: `switchChain` to it meets 4902
   * and asks the wallet to add it.
   */
  addableChain: string
  /**
   * The phone wallet of the universal-link flow (a mobile Client, a Solana wallet): its id, its
   * address and the chain the Client asks for (`solanaChainId`, default Solana mainnet).
   */
  phone: { walletId: string; namespace: 'solana'; address: string; chainId: string }
}

/**
 * The desktop test wallet: MetaMask's id, anvil's first two dev accounts, chains 1, 10, 8453; the
 * phone wallet: the test kit's partner wallet (`TEST_PARTNER_WALLET_ID`: only a partner answers the
 * `sc*` universal links), the first Solana test key, Solana mainnet.
 */
export function defaultWorld(): ClientPathWorld {
  return {
    walletId: 'metamask',
    namespace: 'eip155',
    accounts: TEST_EVM_KEYS.map((key) => privateKeyToAccount(key).address),
    chains: ['eip155:1', 'eip155:10', 'eip155:8453'],
    addableChain: 'eip155:42161',
    phone: {
      walletId: TEST_PARTNER_WALLET_ID,
      namespace: 'solana',
      address: base58.encode(ed25519.getPublicKey(TEST_SOLANA_KEYS[0] as Uint8Array)),
      chainId: SOLANA_MAINNET_CHAIN_ID,
    },
  }
}

/**
 * Short named timeouts for replaying paths: every flow of the doubles ends well inside them, and a
 * time step waits only this long (or advances fake timers by it).
 */
export const PATH_TIMEOUTS: ClientTimeouts = {
  connectorLoadMs: 2_000,
  discoveryMs: 200,
  walletAnswerMs: 1_000,
  signatureMs: 1_000,
  reconnectMs: 1_000,
}
