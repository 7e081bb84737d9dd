import { afterAll, afterEach, beforeAll } from 'vitest'
import {
  SOLANA_DEVNET,
  startTestServer,
  TEST_PROJECT,
  type TestServer,
} from '../../server/test/support/server'
import {
  type SolanaRpcDouble,
  startSolanaRpcDouble,
} from '../../server/test/support/solana-rpc-double'
import { Client, type ClientOptions } from '../../src/client'
import { createMemoryConnectionStore } from '../../src/connection'
import { createMemoryTransactionStore } from '../../src/transaction'
import type { RunningAnvil } from './anvil'
import { useBackendWithAnvil } from './backend-with-anvil'
import {
  startWalletConnectRelayDouble,
  type WalletConnectRelayDouble,
} from './walletconnect-relay-double'
import {
  pairFromView,
  startWalletConnectWallet,
  type TestWalletConnectWallet,
} from './walletconnect-wallet'

/**
 * The Client's WalletConnect tests, started once for a test file: the loopback relay double, a real
 * sign-client wallet approving `chains`, and the real backend (on anvil, or with `solanaSlot` on the
 * Solana JSON-RPC TEST DOUBLE: no validator runs here). After each test the wallet answers `approve`
 * again, its hung requests are rejected and the test's Clients disconnect. Read the parts inside tests.
 */
export function useWalletConnectWorld(options: {
  chains: string[]
  solanaSlot?: number
  /** The backend's transaction watch (anvil worlds only). */
  transactions?: { blockPollMs?: number }
}): {
  readonly relay: WalletConnectRelayDouble
  /** The anvil the wallet broadcasts to and the backend watches (without `solanaSlot` only). */
  readonly anvil: RunningAnvil
  readonly wallet: TestWalletConnectWallet
  readonly server: TestServer
  /** The Solana JSON-RPC test double (with `solanaSlot` only). */
  readonly solana: SolanaRpcDouble
  /**
   * A desktop Client on the world's backend with memory stores (`options` on top), which the
   * wallet pairs from each `pairingUri` it shows; the URIs seen, in order.
   */
  newClient(options?: Partial<ClientOptions>): { client: Client; uris: string[] }
} {
  const clients: Client[] = []
  const world = {} as {
    relay: WalletConnectRelayDouble
    wallet: TestWalletConnectWallet
    server: TestServer
    solana?: SolanaRpcDouble
  }
  const anvil =
    options.solanaSlot === undefined
      ? useBackendWithAnvil(options.transactions ? { transactions: options.transactions } : {})
      : null
  beforeAll(async () => {
    if (anvil) world.server = anvil.server
    else {
      world.solana = await startSolanaRpcDouble({ slot: options.solanaSlot })
      const networks = [{ chainId: SOLANA_DEVNET, rpcUrl: world.solana.url }]
      world.server = await startTestServer({
        projects: { projects: [{ ...TEST_PROJECT, networks }] },
        transactions: { blockPollMs: 50 },
      })
    }
    world.relay = await startWalletConnectRelayDouble()
    world.wallet = await startWalletConnectWallet({
      relayUrl: world.relay.url,
      ...(anvil ? { rpcUrl: anvil.anvil.rpcUrl } : { solanaRpcUrl: world.solana?.url }),
    })
    world.wallet.chains = options.chains
  }, 30_000)
  afterAll(async () => {
    await world.wallet?.close()
    await world.relay?.close()
    if (!anvil) await world.server?.close()
    await world.solana?.close()
  })
  afterEach(async () => {
    world.relay.silence = false
    world.wallet.proposals = 'approve'
    world.wallet.requests = 'approve'
    world.wallet.signTransactionAnswer = 'transaction'
    await world.wallet.rejectHung()
    for (const client of clients.splice(0)) await client.disconnect().catch(() => {})
  })
  return {
    get relay() {
      return world.relay
    },
    get wallet() {
      return world.wallet
    },
    get anvil() {
      if (!anvil) throw new Error('useWalletConnectWorld: a solanaSlot world has no anvil')
      return anvil.anvil
    },
    get server() {
      return world.server
    },
    get solana() {
      if (!world.solana) throw new Error('useWalletConnectWorld: no solanaSlot, no Solana double')
      return world.solana
    },
    newClient(clientOptions = {}) {
      const client = new Client({
        baseUrl: world.server.baseUrl,
        appKey: world.server.appKey,
        mobile: false,
        connectionStore: createMemoryConnectionStore(),
        transactions: { store: createMemoryTransactionStore() },
        ...clientOptions,
      })
      const uris = pairFromView(client, world.wallet)
      clients.push(client)
      return { client, uris }
    },
  }
}
