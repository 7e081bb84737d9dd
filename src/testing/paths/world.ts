import { privateKeyToAccount } from 'viem/accounts'
import type { ClientTimeouts } from '../../../machines/client/client.types'
import { TEST_EVM_KEYS } from '../doubles/keys'

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
}

/** The desktop test wallet: MetaMask's id, anvil's first two dev accounts, chains 1, 10, 8453. */
export function defaultWorld(): ClientPathWorld {
  return {
    walletId: 'metamask',
    namespace: 'eip155',
    accounts: TEST_EVM_KEYS.map((key) => privateKeyToAccount(key).address),
    chains: ['eip155:1', 'eip155:10', 'eip155:8453'],
    addableChain: 'eip155:42161',
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
