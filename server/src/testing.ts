import { randomBytes } from 'node:crypto'
import { relayUrlForBaseUrl } from 'scope-connect'
import { TEST_PARTNER_WALLET } from 'scope-connect/testing'
import type { PartnerWalletEntry } from 'scope-connect/wire'
import { type RunningAnvil, startAnvil } from './anvil'
import type { AppOptions } from './app'
import type { ProjectsConfig } from './config/projects-schema'
import { startServer } from './server'

/**
 * `@scope-connect/server/testing`: the real backend and relay for a dApp's tests, in process, on a
 * free port of 127.0.0.1, with the in-memory store — the same routes, checks and wire protocol as
 * production. Pair it with `scope-connect/testing` (`runClientPath(path, driver, { backend })`).
 */

/** The app key of the test project. */
export const TEST_BACKEND_APP_KEY = 'test-backend-app-key'

/** Options of `startTestBackend`. */
export interface TestBackendOptions {
  /**
   * Starts a local anvil node (the `@foundry-rs/anvil` binary) and enables its chain in the test
   * project with its RPC URL: balance reads then read a real chain. Default false.
   */
  anvil?: boolean
  /**
   * The projects file; default one project (`TEST_BACKEND_APP_KEY`) with common chains and wallets,
   * and the test kit's partner wallet (`TEST_PARTNER_WALLET` of `scope-connect/testing`).
   */
  projects?: ProjectsConfig
  /** More app options (a clock, the session lifetime, rate limits…). */
  app?: Omit<Partial<AppOptions>, 'projects'>
}

/** A running test backend. */
export interface TestBackend {
  /** `http://127.0.0.1:<port>`: the Client's `baseUrl`. */
  baseUrl: string
  appKey: string
  /** The relay's WebSocket URL (the Client's default for `baseUrl`). */
  relayUrl: string
  /** The anvil node, with `anvil: true`. */
  anvil: RunningAnvil | null
  /** Stops the server (and anvil). */
  close(): Promise<void>
}

function testProjects(anvil: RunningAnvil | null): ProjectsConfig {
  return {
    projects: [
      {
        projectId: 'test-project',
        name: 'Test dApp',
        appKeys: [TEST_BACKEND_APP_KEY],
        networks: [
          { chainId: 'eip155:1' },
          { chainId: 'eip155:10' },
          { chainId: 'eip155:8453' },
          ...(anvil ? [{ chainId: `eip155:${anvil.chainId}`, rpcUrl: anvil.rpcUrl }] : []),
          { chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' },
          { chainId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1' },
        ],
        wallets: ['metamask', 'coinbase', 'rabby', 'phantom', 'solflare', TEST_PARTNER_WALLET.id],
        partnerWallets: [structuredClone(TEST_PARTNER_WALLET) as PartnerWalletEntry],
      },
    ],
  }
}

/**
 * Starts the real server and relay in process on a free port (memory store; a relay signing key
 * of its own, so no warning), optionally with anvil. Close it after the tests.
 */
export async function startTestBackend(options: TestBackendOptions = {}): Promise<TestBackend> {
  const anvil = options.anvil ? await startAnvil() : null
  try {
    const server = await startServer({
      ...options.app,
      projects: options.projects ?? testProjects(anvil),
      relay: { signingKeys: [new Uint8Array(randomBytes(32))], ...options.app?.relay },
      port: 0,
      host: '127.0.0.1',
      shutdownGraceMs: 1_000,
    })
    return {
      baseUrl: server.url,
      appKey: options.projects
        ? (options.projects.projects[0]?.appKeys[0] ?? '')
        : TEST_BACKEND_APP_KEY,
      relayUrl: relayUrlForBaseUrl(server.url),
      anvil,
      async close() {
        await server.close()
        await anvil?.stop()
      },
    }
  } catch (error) {
    await anvil?.stop()
    throw error
  }
}
