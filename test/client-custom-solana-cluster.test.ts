import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { closedPortUrl } from '../server/test/chains/support/black-hole'
import { randomAddress } from '../server/test/chains/support/solana-keys'
import { startTestServer, type TestServer } from '../server/test/support/server'
import {
  type SolanaRpcDouble,
  startSolanaRpcDouble,
} from '../server/test/support/solana-rpc-double'
import { Client } from '../src/client'
import { type AppError, isAppError } from '../src/errors'
import { clearNetworks, getNetworkInfo } from '../src/index'

// Issue 29, item 1, for Solana, through the Client's public API: a project whose projects file
// declares a made-up cluster (not in the registry), read by the real server from the Solana
// JSON-RPC TEST DOUBLE (no validator runs here). A second made-up cluster's RPC is down.

const CLUSTER = 'solana:Fgy8dEPCMkwK3Rn4wCSPUXUbySS2ubfb'
const DOWN = 'solana:9xQeWvG816bUx9EPjHmaT23yvVM2ZWbr'
const CURRENCY = { name: 'Local SOL', symbol: 'LSOL', decimals: 9 }

let solana: SolanaRpcDouble
let server: TestServer

beforeAll(async () => {
  solana = await startSolanaRpcDouble({ slot: 9_000 })
  server = await startTestServer({
    projects: {
      projects: [
        {
          projectId: 'cluster-dapp',
          name: 'Cluster dApp',
          appKeys: ['cluster-app-key'],
          networks: [
            {
              chainId: CLUSTER,
              rpcUrl: solana.url,
              name: 'Local cluster',
              nativeCurrency: CURRENCY,
            },
            {
              chainId: DOWN,
              rpcUrl: await closedPortUrl(),
              name: 'Down',
              nativeCurrency: CURRENCY,
            },
          ],
          wallets: ['phantom'],
        },
      ],
    },
  })
})
afterAll(async () => {
  await server?.close()
  await solana?.close()
})
afterEach(() => clearNetworks())

const client = () =>
  new Client({ baseUrl: server.baseUrl, appKey: 'cluster-app-key', connectors: [], mobile: false })

describe('a custom Solana cluster of the projects file, through the Client', () => {
  it('default: after loadConfig() lookups know the cluster; getBalance and getBalances read SOL and an SPL token on it', async () => {
    const owner = randomAddress()
    const mint = randomAddress()
    solana.setBalance(owner, 3_000_000_000n)
    solana.setMint(mint, { decimals: 6 })
    solana.setTokenAccounts(owner, [{ pubkey: randomAddress(), mint, amount: 42_000n }])
    const c = client()
    const config = await c.loadConfig()
    expect(config.networks.find((n) => n.networkId === CLUSTER)).toMatchObject({
      namespace: 'solana',
      name: 'Local cluster',
      nativeCurrency: CURRENCY,
    })
    expect(getNetworkInfo(CLUSTER)).toMatchObject({ name: 'Local cluster', namespace: 'solana' })
    const sol = await c.getBalance({ chainId: CLUSTER, tokenAddress: 'native', account: owner })
    expect(sol).toMatchObject({ chainId: CLUSTER, raw: 3_000_000_000n, decimals: 9 })
    const batch = await c.getBalances([
      { chainId: CLUSTER, tokenAddress: 'native', account: owner },
      { chainId: CLUSTER, tokenAddress: mint, account: owner },
    ])
    expect(batch.map((r) => (r.status === 'success' ? r.balance.raw : r.error.code))).toEqual([
      3_000_000_000n,
      42_000n,
    ])
  })

  it("error: the cluster's RPC unreachable: RPC_ERROR (the backend says UPSTREAM_ERROR); the next read works", async () => {
    const owner = randomAddress()
    solana.setBalance(owner, 7n)
    const c = client()
    await c.loadConfig()
    const error = await c
      .getBalance({ chainId: DOWN, tokenAddress: 'native', account: owner })
      .then(
        () => null,
        (e: AppError) => e,
      )
    expect(isAppError(error, 'RPC_ERROR'), String(error)).toBe(true)
    expect(error).toMatchObject({ backendCode: 'UPSTREAM_ERROR' })
    const next = await c.getBalance({ chainId: CLUSTER, tokenAddress: 'native', account: owner })
    expect(next.raw).toBe(7n)
  })
})
