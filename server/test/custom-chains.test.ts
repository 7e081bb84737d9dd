import { spawn } from 'node:child_process'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  BalanceResponseSchema,
  BalancesResponseSchema,
  ConfigResponseSchema,
  TransactionStatusResponseSchema,
} from 'scope-connect/wire'
import { type Address, parseGwei } from 'viem'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { keyWallet } from '../../test/support/evm-transactions'
import { createChainRegistry } from '../src/chains'
import { ProjectsConfigError, parseProjectsConfig } from '../src/config/projects'
import type { ProjectConfig, ProjectsConfig } from '../src/config/projects-schema'
import { closedPortUrl } from './chains/support/black-hole'
import {
  DEV_ACCOUNT_BALANCE,
  startEvmFixture,
  UNTOUCHED_DEV_ACCOUNT,
} from './chains/support/evm-fixture'
import { call, codeOf } from './support/http'
import { startTestServer, type TestServer } from './support/server'

// Issue 29, item 1: a chain the library's registry lacks (Linea's id, eip155:59144, served by a
// real anvil started with that chain id) works end to end on the real server: config, balances
// (one read, a batch with and without Multicall3), transaction status, sessions. Its failure
// twins: an unreachable custom RPC, malformed chain entries (start-up errors naming the field).

const LINEA = 'eip155:59144'
/** A custom chain whose node is down (nothing listens on its port). */
const DOWN = 'eip155:59145'
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const ROOT = fileURLToPath(new URL('../..', import.meta.url))

const LINEA_ENTRY = {
  name: 'Linea',
  nativeCurrency: { name: 'Linea Ether', symbol: 'ETH', decimals: 18 },
  explorerUrl: 'https://lineascan.build',
  testnet: false,
  blockTimeMs: 2_000,
}

type Fixture = Awaited<ReturnType<typeof startEvmFixture>>
let fx: Fixture
let token: Address
/** Multicall3 deployed: the default (canonical address). */
let withMulticall: TestServer
/** The same chain declared without Multicall3 (`multicall3: null`): reads one by one. */
let withoutMulticall: TestServer
const upstream = { with: [] as string[], without: [] as string[] }

const counting =
  (into: string[]): typeof fetch =>
  async (input, init) => {
    const body = JSON.parse(String(init?.body)) as { method: string } | { method: string }[]
    for (const one of [body].flat()) into.push(one.method)
    return fetch(input, init)
  }

function lineaProject(extra: Partial<ProjectConfig['networks'][number]>, down: string) {
  return {
    projectId: 'linea-dapp',
    name: 'Linea dApp',
    appKeys: ['linea-app-key'],
    networks: [
      {
        chainId: LINEA,
        rpcUrl: fx.anvil.rpcUrl,
        publicRpcUrls: ['https://rpc.linea.build'],
        ...LINEA_ENTRY,
        ...extra,
      },
      {
        chainId: DOWN,
        rpcUrl: down,
        name: 'Down chain',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      },
    ],
    wallets: ['metamask'],
  } satisfies ProjectConfig
}

async function serve(extra: Partial<ProjectConfig['networks'][number]>, into: string[]) {
  const project = lineaProject(extra, await closedPortUrl())
  // A second project that does not know the custom chain.
  const other: ProjectConfig = {
    projectId: 'other',
    name: 'Other',
    appKeys: ['other-app-key'],
    networks: [{ chainId: 'eip155:1' }],
    wallets: ['metamask'],
  }
  return startTestServer({
    projects: { projects: [project, other] },
    chains: createChainRegistry(project.networks, { fetch: counting(into), timeoutMs: 1_000 }),
    transactions: { blockPollMs: 100, timeoutMs: 1_000 },
  })
}

beforeAll(async () => {
  fx = await startEvmFixture({ chainId: 59144 })
  await fx.deployMulticall3()
  token = await fx.deploy('TestToken', [6])
  await fx.send(token, 'TestToken', 'mint', [UNTOUCHED_DEV_ACCOUNT, 4_200n])
  withMulticall = await serve({}, upstream.with)
  withoutMulticall = await serve({ multicall3: null }, upstream.without)
}, 60_000)
afterAll(async () => {
  await withMulticall?.close()
  await withoutMulticall?.close()
  await fx?.anvil.stop()
})
beforeEach(async () => {
  // A new block per test, so no answer comes from an earlier test's per-block cache.
  await fx.testClient.mine({ blocks: 1 })
  upstream.with.length = 0
  upstream.without.length = 0
})

const get = (server: TestServer, path: string, appKey = 'linea-app-key') =>
  call(server.baseUrl, path, { headers: { 'x-app-key': appKey } })
const post = (server: TestServer, path: string, body: unknown, appKey = 'linea-app-key') =>
  call(server.baseUrl, path, { headers: { 'x-app-key': appKey }, body })

describe('a custom chain (eip155:59144 on anvil) through the real server', () => {
  it('default: GET /config carries its name, currency, public RPC URLs and explorer; never the backend rpcUrl', async () => {
    const answer = await get(withMulticall, '/config')
    expect(answer.status).toBe(200)
    const config = ConfigResponseSchema.parse(answer.body)
    expect(config.networks[0]).toEqual({
      networkId: LINEA,
      namespace: 'eip155',
      name: 'Linea',
      nativeCurrency: { name: 'Linea Ether', symbol: 'ETH', decimals: 18 },
      testnet: false,
      rpcUrls: ['https://rpc.linea.build'],
      explorerUrl: 'https://lineascan.build',
    })
    // No publicRpcUrls: no RPC URL at all (the backend's may carry a provider key).
    expect(config.networks[1]).not.toHaveProperty('rpcUrls')
    expect(JSON.stringify(answer.body)).not.toContain(fx.anvil.rpcUrl)
  })

  it('default: a built-in chain keeps its registry data, with its public RPC URLs and explorer', async () => {
    const config = ConfigResponseSchema.parse(
      (await get(withMulticall, '/config', 'other-app-key')).body,
    )
    expect(config.networks).toEqual([
      {
        networkId: 'eip155:1',
        namespace: 'eip155',
        name: 'Ethereum',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        testnet: false,
        rpcUrls: ['https://ethereum.reth.rs/rpc'],
        explorerUrl: 'https://etherscan.io',
      },
    ])
  })

  it('default: a balance read, native and ERC-20', async () => {
    const native = await get(
      withMulticall,
      `/balances?chainId=${LINEA}&tokenAddress=native&account=${UNTOUCHED_DEV_ACCOUNT}`,
    )
    expect(native.status).toBe(200)
    expect(BalanceResponseSchema.parse(native.body)).toMatchObject({
      chainId: LINEA,
      raw: DEV_ACCOUNT_BALANCE.toString(),
      decimals: 18,
    })
    const erc20 = await get(
      withoutMulticall,
      `/balances?chainId=${LINEA}&tokenAddress=${token}&account=${UNTOUCHED_DEV_ACCOUNT}`,
    )
    expect(BalanceResponseSchema.parse(erc20.body)).toMatchObject({ raw: '4200', decimals: 6 })
  })

  const queries = () => [
    { chainId: LINEA, tokenAddress: 'native', account: UNTOUCHED_DEV_ACCOUNT },
    { chainId: LINEA, tokenAddress: token, account: UNTOUCHED_DEV_ACCOUNT },
    { chainId: LINEA, tokenAddress: token, account: RECIPIENT },
  ]

  it('default: a batch goes through Multicall3 (one aggregate3 eth_call, no per-item reads)', async () => {
    const answer = await post(withMulticall, '/balances', { queries: queries() })
    expect(answer.status).toBe(200)
    const { balances: results } = BalancesResponseSchema.parse(answer.body)
    expect(results.map((r) => ('raw' in r ? r.raw : r.error.code))).toEqual([
      DEV_ACCOUNT_BALANCE.toString(),
      '4200',
      '0',
    ])
    expect(upstream.with.filter((m) => m === 'eth_call')).toHaveLength(1)
    expect(upstream.with).not.toContain('eth_getBalance')
  })

  it('parameters: multicall3 null: the same batch reads each item at one block, same answers', async () => {
    const answer = await post(withoutMulticall, '/balances', { queries: queries() })
    const { balances: results } = BalancesResponseSchema.parse(answer.body)
    expect(results.map((r) => ('raw' in r ? r.raw : r.error.code))).toEqual([
      DEV_ACCOUNT_BALANCE.toString(),
      '4200',
      '0',
    ])
    expect(upstream.without).toContain('eth_getBalance')
    expect(upstream.without.filter((m) => m === 'eth_call').length).toBeGreaterThanOrEqual(2)
  })

  it('default: a transaction wait: pending or confirmed, then confirmed with its block', async () => {
    const hash = await keyWallet(fx.anvil.rpcUrl).sendTransaction({
      to: RECIPIENT,
      value: 1n,
      chain: null,
      maxPriorityFeePerGas: parseGwei('1'),
      maxFeePerGas: parseGwei('10'),
      gas: 21_000n,
    })
    const answer = await get(
      withMulticall,
      `/transactions?chainId=${LINEA}&hash=${hash}&waitMs=5000`,
    )
    expect(answer.status).toBe(200)
    const status = TransactionStatusResponseSchema.parse(answer.body)
    expect(status).toMatchObject({ chainId: LINEA, hash, status: 'confirmed' })
    expect(Number(status.blockNumber)).toBeGreaterThan(0)
  })

  it('default: a session on the custom chain is created; another project gets 422, not 403', async () => {
    const created = await post(withMulticall, '/sessions', { caip2Chain: LINEA })
    expect(created.status).toBe(201)
    const other = await post(withMulticall, '/sessions', { caip2Chain: LINEA }, 'other-app-key')
    expect([other.status, codeOf(other)]).toEqual([422, 'UNSUPPORTED_CHAIN'])
    const builtIn = await post(
      withMulticall,
      '/sessions',
      { caip2Chain: 'eip155:8453' },
      'linea-app-key',
    )
    expect([builtIn.status, codeOf(builtIn)]).toEqual([403, 'CHAIN_NOT_ENABLED'])
  })

  it('error: an unreachable custom RPC: 502 UPSTREAM_ERROR for a read, a batch item and a status; the live chain answers next', async () => {
    const single = await get(
      withMulticall,
      `/balances?chainId=${DOWN}&tokenAddress=native&account=${UNTOUCHED_DEV_ACCOUNT}`,
    )
    expect([single.status, codeOf(single)]).toEqual([502, 'UPSTREAM_ERROR'])
    const batch = BalancesResponseSchema.parse(
      (
        await post(withMulticall, '/balances', {
          queries: [
            { chainId: DOWN, tokenAddress: 'native', account: UNTOUCHED_DEV_ACCOUNT },
            { chainId: LINEA, tokenAddress: 'native', account: UNTOUCHED_DEV_ACCOUNT },
          ],
        })
      ).body,
    )
    expect(batch.balances.map((r) => ('raw' in r ? r.raw : r.error.code))).toEqual([
      'UPSTREAM_ERROR',
      DEV_ACCOUNT_BALANCE.toString(),
    ])
    const status = await get(
      withMulticall,
      `/transactions?chainId=${DOWN}&hash=0x${'ab'.repeat(32)}`,
    )
    expect([status.status, codeOf(status)]).toEqual([502, 'UPSTREAM_ERROR'])
    const next = await get(
      withMulticall,
      `/balances?chainId=${LINEA}&tokenAddress=native&account=${UNTOUCHED_DEV_ACCOUNT}`,
    )
    expect(next.status).toBe(200)
  })
})

describe('a malformed chain entry: a start-up error that names the field', () => {
  const file = (network: Record<string, unknown>): ProjectsConfig =>
    ({
      projects: [
        {
          projectId: 'p',
          name: 'P',
          appKeys: ['key-key-key'],
          networks: [{ chainId: 'eip155:1' }, network],
          wallets: [],
        },
      ],
    }) as unknown as ProjectsConfig
  const problemsOf = (network: Record<string, unknown>): string[] => {
    try {
      parseProjectsConfig(file(network))
    } catch (error) {
      if (error instanceof ProjectsConfigError) return error.problems
      throw error
    }
    return []
  }
  const at = 'projects[0].networks[1]'

  it('default: a complete custom EVM chain and a custom Solana cluster parse', () => {
    expect(problemsOf({ chainId: LINEA, rpcUrl: 'https://rpc.example', ...LINEA_ENTRY })).toEqual(
      [],
    )
    expect(
      problemsOf({
        chainId: 'solana:Fgy8dEPCMkwK3Rn4wCSPUXUbySS2ubfb',
        name: 'Local cluster',
        nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 },
        rpcUrl: 'http://127.0.0.1:8899',
        testnet: true,
      }),
    ).toEqual([])
  })

  it.each([
    [
      { chainId: LINEA, nativeCurrency: LINEA_ENTRY.nativeCurrency },
      `${at}.name: required for ${LINEA}, which is not a built-in chain`,
    ],
    [
      { chainId: LINEA, name: 'Linea' },
      `${at}.nativeCurrency: required for ${LINEA}, which is not a built-in chain`,
    ],
    [{ ...LINEA_ENTRY, chainId: 'eip155:0x1' }, `${at}.chainId: unsupported chain eip155:0x1`],
    [{ ...LINEA_ENTRY, chainId: 'cosmos:cosmoshub-4' }, `${at}.chainId: unsupported chain`],
    [
      { ...LINEA_ENTRY, chainId: LINEA, nativeCurrency: { name: 'E', symbol: 'E', decimals: 300 } },
      `${at}.nativeCurrency.decimals:`,
    ],
    [{ ...LINEA_ENTRY, chainId: LINEA, explorerUrl: 'lineascan.build' }, `${at}.explorerUrl:`],
    [{ ...LINEA_ENTRY, chainId: LINEA, publicRpcUrls: [] }, `${at}.publicRpcUrls:`],
    [{ ...LINEA_ENTRY, chainId: LINEA, multicall3: '0x12' }, `${at}.multicall3:`],
    [
      {
        chainId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
        wsUrl: 'wss://devnet.example',
      },
      `${at}.wsUrl: only for eip155 chains`,
    ],
  ])('error: %j → %s', (network, problem) => {
    const problems = problemsOf(network)
    expect(problems).toHaveLength(1)
    expect(problems[0]).toContain(problem)
  })

  it('error: the CLI exits 1 on a custom chain without its currency, naming the field; with it, it starts', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'custom-chain-'))
    const path = join(dir, 'projects.json')
    const run = async (network: Record<string, unknown>) => {
      await writeFile(path, JSON.stringify(file(network)))
      const child = spawn(
        process.execPath,
        ['server/bin/scope-connect-server.js', '--port', '0', '--projects', path],
        { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
      )
      let output = ''
      child.stdout.on('data', (chunk) => {
        output += chunk
      })
      child.stderr.on('data', (chunk) => {
        output += chunk
      })
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
      return { child, exited, output: () => output }
    }
    const bad = await run({ chainId: LINEA, name: 'Linea', rpcUrl: 'http://127.0.0.1:9' })
    expect(await bad.exited).toBe(1)
    expect(bad.output()).toContain(
      `${at}.nativeCurrency: required for ${LINEA}, which is not a built-in chain`,
    )
    const good = await run({ chainId: LINEA, rpcUrl: 'http://127.0.0.1:9', ...LINEA_ENTRY })
    try {
      await expect
        .poll(() => good.output(), { timeout: 20_000, interval: 100 })
        .toMatch(/listening on http/)
    } finally {
      good.child.kill('SIGTERM')
    }
    expect(await good.exited).toBe(0)
  }, 40_000)
})
