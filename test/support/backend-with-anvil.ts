import { afterAll, beforeAll } from 'vitest'
import {
  SOLANA_DEVNET,
  startTestServer,
  TEST_PROJECT,
  type TestServer,
} from '../../server/test/support/server'
import { type RunningAnvil, startAnvil } from './anvil'

/**
 * The Client's usual real parts, started once for a test file: anvil and the real server serving
 * the test project on anvil's chain (`eip155:31337`) and Solana devnet. Read the parts inside
 * tests (they exist once `beforeAll` ran).
 */
export function useBackendWithAnvil(): {
  readonly anvil: RunningAnvil
  readonly server: TestServer
} {
  const parts = {} as { anvil: RunningAnvil; server: TestServer }
  beforeAll(async () => {
    parts.anvil = await startAnvil()
    parts.server = await startTestServer({
      projects: {
        projects: [
          {
            ...TEST_PROJECT,
            networks: [
              { chainId: 'eip155:31337', rpcUrl: parts.anvil.rpcUrl },
              { chainId: SOLANA_DEVNET },
            ],
          },
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
