import type { PartnerWalletEntry } from 'scope-connect/wire'
import { describe, expect, it } from 'vitest'
import { runQuickstart } from '../../examples/quickstart'
import {
  SOLANA_DEVNET,
  startTestServer,
  TEST_PROJECT,
  type TestServer,
} from '../../server/test/support/server'
import { TEST_PARTNER_WALLET } from '../../src/testing'
import { freePort } from '../support/anvil'
import { sharedAnvil } from '../support/shared-services'

/** A server whose project reads `eip155:31337` from `rpcUrl`, as after `npm start`. */
const serverReading = (rpcUrl: string) =>
  startTestServer({
    projects: {
      projects: [
        {
          ...TEST_PROJECT,
          networks: [
            { chainId: 'eip155:1' },
            { chainId: 'eip155:31337', rpcUrl },
            { chainId: SOLANA_DEVNET },
          ],
          // As the sample project: the partner wallet the quickstart answers as.
          partnerWallets: [structuredClone(TEST_PARTNER_WALLET) as PartnerWalletEntry],
        },
      ],
    },
  })

async function run(server: TestServer) {
  const lines: string[] = []
  const result = await runQuickstart({
    baseUrl: server.baseUrl,
    appKey: server.appKey,
    log: (line) => lines.push(line),
    intervalMs: 50,
  })
  expect(result).toMatchObject({ status: 'signed', connected: true, signed: true })
  expect(result.walletAddress).toMatch(/^0x[0-9a-fA-F]{40}$/)
  expect(lines).toContain('status: signed')
  expect(lines.at(-1)).toBe(`signed by ${result.walletAddress}, verified by the backend`)
  return lines
}

describe('examples/quickstart', () => {
  const anvil = sharedAnvil()

  it('runs end to end against a real server: config, the local chain balance, a signed session', async () => {
    const server = await serverReading(anvil.rpcUrl)
    try {
      const lines = await run(server)
      expect(lines[0]).toBe('project Test dApp: 3 networks, 5 wallets')
      // The local chain, not eip155:1 (first in the project, but no RPC here): a funded dev account.
      expect(lines[1]).toBe(
        'balance on Anvil / Hardhat (local): 10000000000000000000000 (18 decimals)',
      )
    } finally {
      await server.close()
    }
  })

  it('error: the local chain is not running: the typed error with a hint, and the session still signs', async () => {
    const server = await serverReading(`http://127.0.0.1:${await freePort()}`)
    try {
      const lines = await run(server)
      expect(lines[1]).toBe(
        'balance on Anvil / Hardhat (local): RPC_ERROR (UPSTREAM_ERROR) (is the local chain running? `npm start` starts one)',
      )
    } finally {
      await server.close()
    }
  })
})
