import { afterAll, beforeAll } from 'vitest'
import type { AppOptions } from '../../server/src/app'
import {
  SOLANA_DEVNET,
  startTestServer,
  TEST_PROJECT,
  type TestServer,
} from '../../server/test/support/server'
import { type RunningAnvil, startAnvil } from './anvil'
import { withTestPartnerWallet } from './partner-project'

export interface BackendWithAnvilOptions {
  /** More anvil flags, e.g. `['--no-mining']` for a chain the test mines by hand. */
  anvilArgs?: string[]
  /** The server's transaction settings (its block poll, its node timeout). */
  transactions?: AppOptions['transactions']
  /** The anvil network's explorer in the projects file (the toast's link). */
  explorerUrl?: string
}

/**
 * The Client's usual real parts, started once for a test file: anvil and the real server serving
 * the test project on anvil's chain (`eip155:31337`) and Solana devnet, its wallets including the
 * test kit's partner wallet (`TEST_PARTNER_WALLET`, the `sc*` links and the `scr` relay). Read the parts inside
 * tests (they exist once `beforeAll` ran).
 */
export function useBackendWithAnvil(options: BackendWithAnvilOptions = {}): {
  readonly anvil: RunningAnvil
  readonly server: TestServer
} {
  const parts = {} as { anvil: RunningAnvil; server: TestServer }
  beforeAll(async () => {
    parts.anvil = await startAnvil(options.anvilArgs ? { args: options.anvilArgs } : {})
    parts.server = await startTestServer({
      ...(options.transactions ? { transactions: options.transactions } : {}),
      projects: {
        projects: [
          withTestPartnerWallet({
            ...TEST_PROJECT,
            networks: [
              {
                chainId: 'eip155:31337',
                rpcUrl: parts.anvil.rpcUrl,
                ...(options.explorerUrl ? { explorerUrl: options.explorerUrl } : {}),
              },
              { chainId: SOLANA_DEVNET },
            ],
          }),
        ],
      },
    })
  })
  afterAll(async () => {
    await parts.server?.close()
    await parts.anvil?.stop()
  })
  return parts
}
