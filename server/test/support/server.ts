import type { FastifyInstance } from 'fastify'
import { type AppOptions, buildApp } from '../../src/app'
import type { ProjectConfig, ProjectsConfig } from '../../src/config/projects-schema'

export const TEST_APP_KEY = 'test-app-key'
export const OTHER_APP_KEY = 'other-app-key'
export const SOLANA_MAINNET = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
export const SOLANA_DEVNET = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'

/** The project most tests use: mainnet and Anvil for EVM, Solana mainnet and devnet. */
export const TEST_PROJECT: ProjectConfig = {
  projectId: 'test-project',
  name: 'Test dApp',
  appKeys: [TEST_APP_KEY],
  networks: [
    { chainId: 'eip155:1' },
    { chainId: 'eip155:31337', rpcUrl: 'http://127.0.0.1:8545' },
    { chainId: SOLANA_MAINNET },
    { chainId: SOLANA_DEVNET },
  ],
  wallets: ['metamask', 'coinbase', 'rainbow', 'phantom', 'solflare'],
}

/** A second project, to show that keys and sessions do not cross projects. */
export const OTHER_PROJECT: ProjectConfig = {
  projectId: 'other-project',
  name: 'Other dApp',
  appKeys: [OTHER_APP_KEY],
  networks: [{ chainId: 'eip155:8453' }],
  wallets: ['metamask'],
  allowedOrigins: ['https://other.example'],
}

export const TEST_PROJECTS: ProjectsConfig = { projects: [TEST_PROJECT, OTHER_PROJECT] }

export interface TestServer {
  /** `http://127.0.0.1:<port>`, without the API prefix. */
  baseUrl: string
  appKey: string
  app: FastifyInstance
  close(): Promise<void>
}

/** A real server on a free port of 127.0.0.1 (in-memory store unless `store` is given). */
export async function startTestServer(
  overrides: Partial<AppOptions> & { projects?: ProjectsConfig } = {},
): Promise<TestServer> {
  const app = await buildApp({ projects: TEST_PROJECTS, ...overrides })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  if (typeof address !== 'object' || address === null) throw new Error('server has no port')
  return {
    baseUrl: `http://127.0.0.1:${address.port}`,
    appKey: TEST_APP_KEY,
    app,
    close: () => app.close(),
  }
}
