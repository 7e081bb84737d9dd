import { once } from 'node:events'
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net'
import {
  BalanceResponseSchema,
  BalancesResponseSchema,
  ConfigResponseSchema,
  SessionResultSchema,
  TransactionStatusResponseSchema,
} from 'scope-connect/wire'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ProjectsConfigError, parseProjectsConfig } from '../src/config/projects'
import type { ProjectConfig, ProjectsConfig } from '../src/config/projects-schema'
import { createMemoryStore } from '../src/store/memory'
import { randomAddress } from './chains/support/solana-keys'
import { call, codeOf } from './support/http'
import { startTestServer, type TestServer } from './support/server'
import { createTestSession, getResult, postCallback } from './support/sessions'
import { type SolanaRpcDouble, startSolanaRpcDouble } from './support/solana-rpc-double'
import { solanaWallet } from './support/wallets'

// Issue 29, item 1, for Solana: a cluster the library's registry lacks (a made-up genesis-hash
// prefix), declared in the projects file with its name, currency and rpcUrl, served by the Solana
// JSON-RPC TEST DOUBLE (no validator runs here), through the real server: GET /config, a SOL and
// an SPL balance, a batch of both, a signature's status wait, a signed session. Failure twins: the
// cluster's RPC unreachable (502, the next call works once it is back) and malformed entries
// (start-up errors naming the field).

/** A made-up cluster: 32 base58 characters, not one of the registry's Solana clusters. */
const CLUSTER = 'solana:Fgy8dEPCMkwK3Rn4wCSPUXUbySS2ubfb'
const APP_KEY = 'cluster-app-key'
const SLOT = 77_000
const CURRENCY = { name: 'Local SOL', symbol: 'LSOL', decimals: 9 }

/**
 * A loopback TCP relay in front of the double whose listener can be shut and reopened on the same
 * port: while down, connections are refused (a real unreachable RPC, not an error answer).
 */
interface Gate {
  url: string
  down(): Promise<void>
  up(): Promise<void>
  close(): Promise<void>
}

async function startGate(target: string): Promise<Gate> {
  const { port: targetPort } = new URL(target)
  const sockets = new Set<Socket>()
  let server: Server | undefined
  let port = 0
  const listen = async () => {
    server = createServer((socket) => {
      const upstream = connect(Number(targetPort), '127.0.0.1')
      for (const s of [socket, upstream]) {
        sockets.add(s)
        s.on('close', () => sockets.delete(s))
        s.on('error', () => {})
      }
      socket.pipe(upstream).pipe(socket)
    })
    server.listen(port, '127.0.0.1')
    await once(server, 'listening')
    port = (server.address() as AddressInfo).port
  }
  const shut = async () => {
    if (!server) return
    const closing = server
    server = undefined
    for (const socket of sockets) socket.destroy()
    closing.close()
    await once(closing, 'close')
  }
  await listen()
  return { url: `http://127.0.0.1:${port}`, down: shut, up: listen, close: shut }
}

let solana: SolanaRpcDouble
let gate: Gate
let server: TestServer
const store = createMemoryStore()

const clusterProject = (rpcUrl: string): ProjectConfig => ({
  projectId: 'cluster-dapp',
  name: 'Cluster dApp',
  appKeys: [APP_KEY],
  networks: [
    {
      chainId: CLUSTER,
      rpcUrl,
      name: 'Local cluster',
      nativeCurrency: CURRENCY,
      testnet: true,
      explorerUrl: 'https://explorer.local.example',
    },
  ],
  wallets: ['phantom'],
})

beforeAll(async () => {
  solana = await startSolanaRpcDouble({ slot: SLOT })
  gate = await startGate(solana.url)
  server = await startTestServer({
    projects: { projects: [clusterProject(gate.url)] },
    store,
    transactions: { blockPollMs: 50, timeoutMs: 1_000 },
  })
})
afterAll(async () => {
  await server?.close()
  await gate?.close()
  await solana?.close()
  await store.close()
})
beforeEach(() => {
  solana.calls.length = 0
  // A new slot per test: no answer comes from an earlier test's cache.
  solana.setSlot(SLOT + Math.floor(Math.random() * 1_000_000))
})

const get = (path: string) => call(server.baseUrl, path, { headers: { 'x-app-key': APP_KEY } })
const post = (path: string, body: unknown) =>
  call(server.baseUrl, path, { headers: { 'x-app-key': APP_KEY }, body })
const balance = (tokenAddress: string, account: string) =>
  get(`/balances?${new URLSearchParams({ chainId: CLUSTER, tokenAddress, account })}`)

function holder() {
  const owner = randomAddress()
  const mint = randomAddress()
  solana.setBalance(owner, 2_500_000_000n)
  solana.setMint(mint, { decimals: 6 })
  solana.setTokenAccounts(owner, [
    { pubkey: randomAddress(), mint, amount: 1_000_000n },
    { pubkey: randomAddress(), mint, amount: 234n },
  ])
  return { owner, mint }
}

describe('a custom Solana cluster (made-up genesis prefix, JSON-RPC double) through the real server', () => {
  it("default: GET /config carries its name, currency, testnet flag and explorer; never the backend's rpcUrl", async () => {
    const answer = await get('/config')
    expect(answer.status).toBe(200)
    expect(ConfigResponseSchema.parse(answer.body).networks).toEqual([
      {
        networkId: CLUSTER,
        namespace: 'solana',
        name: 'Local cluster',
        nativeCurrency: CURRENCY,
        testnet: true,
        explorerUrl: 'https://explorer.local.example',
      },
    ])
    expect(JSON.stringify(answer.body)).not.toContain(gate.url)
  })

  it('default: a SOL balance (getBalance, 9 decimals) and an SPL balance (summed token accounts)', async () => {
    const { owner, mint } = holder()
    const sol = await balance('native', owner)
    expect(sol.status).toBe(200)
    expect(BalanceResponseSchema.parse(sol.body)).toMatchObject({
      chainId: CLUSTER,
      raw: '2500000000',
      decimals: 9,
    })
    const spl = await balance(mint, owner)
    expect(spl.status).toBe(200)
    expect(BalanceResponseSchema.parse(spl.body)).toMatchObject({
      chainId: CLUSTER,
      raw: '1000234',
      decimals: 6,
    })
    expect(solana.calls.map((c) => c.method)).toContain('getBalance')
    expect(solana.calls.map((c) => c.method)).toContain('getTokenAccountsByOwner')
  })

  it('default: a batch of both, and an account the cluster never saw reads 0', async () => {
    const { owner, mint } = holder()
    const answer = await post('/balances', {
      queries: [
        { chainId: CLUSTER, tokenAddress: 'native', account: owner },
        { chainId: CLUSTER, tokenAddress: mint, account: owner },
        { chainId: CLUSTER, tokenAddress: 'native', account: randomAddress() },
      ],
    })
    expect(answer.status).toBe(200)
    const { balances } = BalancesResponseSchema.parse(answer.body)
    expect(balances.map((r) => ('raw' in r ? [r.raw, r.decimals] : r.error.code))).toEqual([
      ['2500000000', 9],
      ['1000234', 6],
      ['0', 9],
    ])
    expect(solana.calls.map((c) => c.method)).toContain('getMultipleAccounts')
  })

  it('default: a signature status wait: pending (processed), then confirmed with its slot', async () => {
    const signature = '4'.repeat(88)
    const slot = SLOT + 5_000_000
    solana.setSlot(slot)
    solana.setSignatureStatus(signature, { slot, confirmationStatus: 'processed', err: null })
    const path = `/transactions?${new URLSearchParams({ chainId: CLUSTER, hash: signature })}`
    const first = await get(path)
    expect(first.status).toBe(200)
    expect(TransactionStatusResponseSchema.parse(first.body)).toMatchObject({ status: 'pending' })
    const waiting = call(server.baseUrl, `${path}&waitMs=5000`, {
      headers: { 'x-app-key': APP_KEY, 'if-none-match': first.headers.get('etag')! },
    })
    await new Promise((resolve) => setTimeout(resolve, 150))
    solana.setSignatureStatus(signature, { slot, confirmationStatus: 'confirmed', err: null })
    solana.setSlot(slot + 2)
    const confirmed = await waiting
    expect(confirmed.status).toBe(200)
    expect(TransactionStatusResponseSchema.parse(confirmed.body)).toMatchObject({
      chainId: CLUSTER,
      hash: signature,
      status: 'confirmed',
      blockNumber: String(slot),
    })
  })

  it('default: a session on the cluster: created, connected, signed by a real ed25519 key', async () => {
    const wallet = solanaWallet()
    const session = await createTestSession(
      server.baseUrl,
      { caip2Chain: CLUSTER, intent: 'sign' },
      APP_KEY,
    )
    const callback = (path: string, body: unknown) =>
      postCallback(server.baseUrl, store, path, body)
    const connected = await callback('/callback/connect', {
      sessionId: session.sessionId,
      walletSlug: 'phantom',
      caip2Chain: CLUSTER,
      walletAddress: wallet.address,
    })
    expect(connected.status, JSON.stringify(connected.body)).toBe(204)
    const timestamp = Date.now()
    const signature = wallet.signEnvelope(session.sessionId, session.nonce, timestamp)
    const signed = await callback('/callback/sign', {
      sessionId: session.sessionId,
      signature,
      timestamp,
      publicKey: wallet.address,
    })
    expect(signed.status, JSON.stringify(signed.body)).toBe(204)
    expect(
      SessionResultSchema.parse((await getResult(server.baseUrl, session)).body),
    ).toMatchObject({ status: 'signed', walletAddress: wallet.address, signature })
  })

  it("error: the cluster's RPC unreachable: 502 UPSTREAM_ERROR for a read, a batch item and a status; once it is back, the next call works", async () => {
    const { owner, mint } = holder()
    await gate.down()
    try {
      const single = await balance('native', owner)
      expect([single.status, codeOf(single)]).toEqual([502, 'UPSTREAM_ERROR'])
      const batch = BalancesResponseSchema.parse(
        (
          await post('/balances', {
            queries: [
              { chainId: CLUSTER, tokenAddress: 'native', account: owner },
              { chainId: CLUSTER, tokenAddress: mint, account: owner },
            ],
          })
        ).body,
      )
      expect(batch.balances.map((r) => ('raw' in r ? r.raw : r.error.code))).toEqual([
        'UPSTREAM_ERROR',
        'UPSTREAM_ERROR',
      ])
      const status = await get(
        `/transactions?${new URLSearchParams({ chainId: CLUSTER, hash: '6'.repeat(88) })}`,
      )
      expect([status.status, codeOf(status)]).toEqual([502, 'UPSTREAM_ERROR'])
    } finally {
      await gate.up()
    }
    solana.setSlot(SLOT + 9_000_000)
    const next = await balance('native', owner)
    expect(next.status).toBe(200)
    expect(BalanceResponseSchema.parse(next.body).raw).toBe('2500000000')
  })
})

describe('a malformed custom cluster entry: a start-up error that names the field', () => {
  const at = 'projects[0].networks[0]'
  const problemsOf = (network: Record<string, unknown>): string[] => {
    const file = {
      projects: [{ ...clusterProject('http://127.0.0.1:9'), networks: [network] }],
    } as unknown as ProjectsConfig
    try {
      parseProjectsConfig(file)
    } catch (error) {
      if (error instanceof ProjectsConfigError) return error.problems
      throw error
    }
    return []
  }
  const entry = {
    chainId: CLUSTER,
    name: 'Local cluster',
    nativeCurrency: CURRENCY,
    rpcUrl: 'http://127.0.0.1:8899',
  }

  it('default: the complete entry parses', () => {
    expect(problemsOf(entry)).toEqual([])
  })

  it.each([
    [{ ...entry, name: undefined }, `${at}.name: required for ${CLUSTER}, which is not a built-in`],
    [
      { ...entry, nativeCurrency: undefined },
      `${at}.nativeCurrency: required for ${CLUSTER}, which is not a built-in`,
    ],
    [{ ...entry, chainId: 'solana:short' }, `${at}.chainId: unsupported chain solana:short`],
    [
      { ...entry, chainId: 'solana:Fgy8dEPCMkwK3Rn4wCSPUXUbySS2ub0b' },
      `${at}.chainId: unsupported chain`,
    ],
    [{ ...entry, rpcUrl: 'ftp://rpc.example' }, `${at}.rpcUrl:`],
    [{ ...entry, nativeCurrency: { ...CURRENCY, decimals: -1 } }, `${at}.nativeCurrency.decimals:`],
    [{ ...entry, wsUrl: 'wss://rpc.example' }, `${at}.wsUrl: only for eip155 chains`],
    [{ ...entry, multicall3: null }, `${at}.multicall3: only for eip155 chains`],
    [
      { ...entry, publicRpcUrls: ['https://rpc.example'] },
      `${at}.publicRpcUrls: only for eip155 chains`,
    ],
  ])('error: %j → %s', (network, problem) => {
    const problems = problemsOf(JSON.parse(JSON.stringify(network)))
    expect(problems).toHaveLength(1)
    expect(problems[0]).toContain(problem)
  })

  it('error: the server does not start with a cluster entry lacking its currency; with it, it does', async () => {
    const bad = clusterProject(solana.url)
    const { nativeCurrency: _currency, ...withoutCurrency } = bad.networks[0]!
    const failed = await startTestServer({
      projects: { projects: [{ ...bad, networks: [withoutCurrency] }] },
    }).then(
      async (started) => {
        await started.close()
        return null
      },
      (error: unknown) => error,
    )
    expect(failed).toBeInstanceOf(ProjectsConfigError)
    expect((failed as ProjectsConfigError).message).toContain(
      `${at}.nativeCurrency: required for ${CLUSTER}, which is not a built-in chain`,
    )
    const good = await startTestServer({ projects: { projects: [bad] } })
    try {
      expect(
        (await call(good.baseUrl, '/config', { headers: { 'x-app-key': APP_KEY } })).status,
      ).toBe(200)
    } finally {
      await good.close()
    }
  })
})
