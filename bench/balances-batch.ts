/**
 * Balances at portfolio scale: 50 ERC-20 balances of one account on anvil, side by side in one run,
 * each read cold (a block is mined before every round, so no cache answers) unless named "again":
 *   - one `reader.getBalances` (POST /balances: Multicall3 aggregate3 at one pinned block), the
 *     backend reading the node over its `wsUrl`, and the same with `rpcUrl` (HTTP) only,
 *   - 50 concurrent `reader.getBalance` (GET /balances each),
 *   - viem's own `multicall` from the dApp, straight to the node (its defaults; and over WebSocket),
 *   - a getBalances and a viem multicall read again in the same block (the per-block cache).
 * References that split a cold batch's time: the hop alone (GET /config), the batch's request with
 * fetch alone (no library), and the backend's own work in process (Fastify's inject).
 * The backends run in child processes of their own (as deployed); anvil prints every request it
 * serves, so every way's upstream calls are counted at the node itself.
 *
 *   npx tsx bench/balances-batch.ts [--rounds 30]
 *
 * Writes the "## Balances in one request" section of docs/benchmarks.md (others are left alone).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Address, createPublicClient, erc20Abi, http, webSocket } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { MULTICALL3_ADDRESS } from '../server/src/chains/multicall3'
import { startEvmFixture } from '../server/test/chains/support/evm-fixture'
import { startTestServer, TEST_PROJECT } from '../server/test/support/server'
import { createBalanceReader, type TokenBalanceQuery } from '../src/balance'
import { createConnectConfigClient } from '../src/config'

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}
const ROUNDS = arg('rounds', 30)
const TOKENS = 50
const HOLDER = privateKeyToAccount(
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
).address

interface Tally {
  http: number
  upstream: number
}

const SELF = fileURLToPath(import.meta.url)
const root = join(dirname(SELF), '..')

/**
 * `--serve <rpcUrl> <chainId> <ws|http>`: the backend alone, in this child process, reading the
 * node over a WebSocket (`wsUrl`, `rpcUrl` the fallback) or over HTTP only; prints READY <port>.
 */
async function serve(rpcUrl: string, chainId: string, over: string) {
  const networks = [
    { chainId, rpcUrl, ...(over === 'ws' ? { wsUrl: rpcUrl.replace(/^http/, 'ws') } : {}) },
  ]
  const server = await startTestServer({
    projects: {
      projects: [
        {
          ...TEST_PROJECT,
          networks,
          rateLimits: { appKey: { limit: 1_000_000, windowSeconds: 60 } },
        },
      ],
    },
  })
  console.log(`READY ${new URL(server.baseUrl).port}`)
}

/** This script again in a child process (`--serve …`), once it prints READY. */
function spawnSelf(args: string[]): Promise<{ baseUrl: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SELF, ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout?.on('data', (chunk) => {
      out += chunk
      const port = /READY (\d+)/.exec(out)?.[1]
      if (port) resolve({ baseUrl: `http://127.0.0.1:${port}`, child })
    })
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)))
  })
}

async function main() {
  // anvil prints the method of every request it serves: upstream calls are counted at the node.
  let upstream = 0
  const fx = await startEvmFixture({
    onRequest: (method) => {
      if (!method.startsWith('evm_')) upstream++ // the bench's own mining is not a read
    },
  })
  await fx.deployMulticall3()
  const tokens: Address[] = []
  for (let i = 0; i < TOKENS; i++) {
    const token = await fx.deploy('TestToken', [18])
    await fx.send(token, 'TestToken', 'mint', [HOLDER, BigInt(i + 1) * 10n ** 18n])
    tokens.push(token)
  }

  const tally: Tally = { http: 0, upstream: 0 }
  const node = fx.anvil.rpcUrl
  const backend = await spawnSelf(['--serve', node, fx.chainId, 'ws'])
  const httpBackend = await spawnSelf(['--serve', node, fx.chainId, 'http'])
  const readerOf = (baseUrl: string) =>
    createBalanceReader({
      baseUrl,
      appKey: TEST_PROJECT.appKeys[0]!,
      fetchImpl: (input, init) => {
        tally.http++
        return fetch(input, init)
      },
    })
  const reader = readerOf(backend.baseUrl)
  const httpReader = readerOf(httpBackend.baseUrl)
  // The dApp's own client, as wagmi would build it: viem's defaults, straight to the node.
  const multicall3 = { multicall3: { address: MULTICALL3_ADDRESS } }
  const dapp = createPublicClient({
    chain: { ...foundry, contracts: multicall3 },
    transport: http(node),
  })
  // Reference: the same, had the dApp a WebSocket endpoint of its own and chosen it.
  const dappOverWs = createPublicClient({
    chain: { ...foundry, contracts: multicall3 },
    transport: webSocket(node.replace(/^http/, 'ws')),
  })
  const viemMulticall = async (client: Pick<typeof dapp, 'multicall'>) =>
    (
      await client.multicall({
        contracts: tokens.map((address) => ({
          address,
          abi: erc20Abi,
          functionName: 'balanceOf' as const,
          args: [HOLDER] as const,
        })),
        allowFailure: true,
      })
    ).map((r) => (r.status === 'success' ? r.result : -1n))
  const queries: TokenBalanceQuery[] = tokens.map((token) => ({
    chainId: fx.chainId,
    tokenAddress: token,
    account: HOLDER,
    decimals: 18,
  }))
  const expected = tokens.map((_, i) => BigInt(i + 1) * 10n ** 18n)

  const config = createConnectConfigClient({
    baseUrl: backend.baseUrl,
    appKey: TEST_PROJECT.appKeys[0]!,
    fetchImpl: (input, init) => {
      tally.http++
      return fetch(input, init)
    },
  })
  // Reference: the same backend in this process, asked through Fastify's inject (no socket, no
  // second process): the backend's own work for the batch, upstream call included.
  const inProcess = await startTestServer({
    projects: {
      projects: [
        {
          ...TEST_PROJECT,
          networks: [
            {
              chainId: fx.chainId,
              rpcUrl: node,
              wsUrl: node.replace(/^http/, 'ws'),
            },
          ],
        },
      ],
    },
  })
  const batchBody = JSON.stringify({ queries })
  const batchRead = async () =>
    (await reader.getBalances(queries)).map((r) => (r.status === 'success' ? r.balance.raw : -1n))
  const ways = {
    // Reference: one round trip to the backend that reads no chain (what the extra hop costs).
    'GET /config (the hop alone)': async () => {
      await config.fetchConfig()
      return expected
    },
    'POST /balances in process (the backend alone)': async () => {
      const answer = await inProcess.app.inject({
        method: 'POST',
        url: '/api/v1/connect/balances',
        headers: { 'x-app-key': inProcess.appKey, 'content-type': 'application/json' },
        payload: batchBody,
      })
      return (answer.json() as { balances: { raw: string }[] }).balances.map((b) => BigInt(b.raw))
    },
    'one getBalances': () => batchRead(),
    // Reference: the same request with the platform's fetch and JSON.parse, no library: what the
    // library's own HTTP layer (ky, the answer's schema) adds to a cold read.
    'POST /balances with fetch alone (no library)': async () => {
      tally.http++
      const answer = await fetch(`${backend.baseUrl}/api/v1/connect/balances`, {
        method: 'POST',
        headers: { 'x-app-key': TEST_PROJECT.appKeys[0]!, 'content-type': 'application/json' },
        body: JSON.stringify({ queries }),
      })
      const { balances } = (await answer.json()) as { balances: { raw: string }[] }
      return balances.map((b) => BigInt(b.raw))
    },
    'one getBalances, backend without wsUrl': async () => {
      const results = await httpReader.getBalances(queries)
      return results.map((r) => (r.status === 'success' ? r.balance.raw : -1n))
    },
    'one getBalances, again in the same block': () => batchRead(),
    '50 concurrent getBalance': async () =>
      (await Promise.all(queries.map((q) => reader.getBalance(q)))).map((b) => b.raw),
    "viem's multicall (dApp)": () => viemMulticall(dapp),
    "viem's multicall over WebSocket (dApp)": () => viemMulticall(dappOverWs),
    "viem's multicall, again in the same block": () => viemMulticall(dapp),
  }
  const warmUps: Partial<Record<keyof typeof ways, () => Promise<unknown>>> = {
    'one getBalances, again in the same block': () => batchRead(),
    "viem's multicall, again in the same block": () => viemMulticall(dapp),
  }
  type Way = keyof typeof ways
  const samples = new Map<Way, { ms: number[]; http: number[]; upstream: number[] }>()
  for (const way of Object.keys(ways) as Way[]) samples.set(way, { ms: [], http: [], upstream: [] })

  const started = performance.now()
  for (let round = -3; round < ROUNDS; round++) {
    // Round-robin, a fresh order each round; the first three rounds warm up and are dropped.
    const order = (Object.keys(ways) as Way[]).sort(() => Math.random() - 0.5)
    for (const way of order) {
      await fx.testClient.mine({ blocks: 1 })
      // Past the server's block-number reuse (a quarter of a measured block, 250 ms at most here).
      await new Promise((resolve) => setTimeout(resolve, 300))
      // The "again" ways read once first (not timed), then again in the same block.
      await warmUps[way]?.()
      tally.http = 0
      upstream = 0
      const t0 = performance.now()
      const raws = await ways[way]()
      const ms = performance.now() - t0
      // anvil prints a request's line as it serves it; let the last lines arrive.
      await new Promise((resolve) => setTimeout(resolve, 50))
      tally.upstream = upstream
      if (raws.some((raw, i) => raw !== expected[i])) throw new Error(`${way} read a wrong balance`)
      if (round < 0) continue
      const sample = samples.get(way)!
      sample.ms.push(ms)
      sample.http.push(tally.http)
      sample.upstream.push(tally.upstream)
    }
  }
  const wall = (performance.now() - started) / 1000
  backend.child.kill('SIGKILL')
  httpBackend.child.kill('SIGKILL')
  await dappOverWs.transport.getRpcClient().then((client) => client.close())
  await inProcess.close()
  await fx.anvil.stop()

  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b)
    return sorted[Math.floor(sorted.length / 2)]!
  }
  const p90 = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b)
    return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.9) - 1)]!
  }
  const batchMedian = median(samples.get('one getBalances')!.ms)
  const load = loadavg()[0]!.toFixed(1)
  const batch = samples.get('one getBalances')!
  const separate = median(samples.get('50 concurrent getBalance')!.ms)
  const viem = median(samples.get("viem's multicall (dApp)")!.ms)
  const fetchAlone = median(samples.get('POST /balances with fetch alone (no library)')!.ms)
  const at = (way: Way) => median(samples.get(way)!.ms).toFixed(1)
  const verdict = (met: boolean) => (met ? 'met' : '**not met**')
  const goals = [
    `- 1 HTTP request: ${median(batch.http)} (${verdict(median(batch.http) === 1)}).`,
    `- ≤ 2 upstream RPC calls: ${median(batch.upstream)} (${verdict(median(batch.upstream) <= 2)}).`,
    `- ≥ 10× faster than 50 separate reads: ${(separate / batchMedian).toFixed(1)}× (${verdict(separate >= 10 * batchMedian)}).`,
    `- Not slower than viem's multicall: ${(batchMedian / viem).toFixed(2)}× its time (${verdict(batchMedian <= viem)}).`,
  ]
  const rows = [...samples].map(([way, s]) => {
    const m = median(s.ms)
    return `| ${way} | ${m.toFixed(1)} | ${p90(s.ms).toFixed(1)} | ${median(s.http)} | ${median(s.upstream)} | ${(m / batchMedian).toFixed(1)}× |`
  })
  const cpu = cpus()[0]?.model.replace(/\s+/g, ' ').trim() ?? 'unknown CPU'
  const section = `## Balances in one request

Generated by \`npx tsx bench/balances-batch.ts --rounds ${ROUNDS}\` on ${new Date().toISOString().slice(0, 10)}:
Node ${process.version}, ${cpus().length} × ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB, load average ${load} at the end.
${TOKENS} ERC-20 balances of one account (decimals given) on anvil with Multicall3 at its canonical
address. The real backend runs in a process of its own (in-process store, loopback HTTP), as
deployed: once with the network's \`wsUrl\` (its reads over one WebSocket to the node, \`rpcUrl\` the
fallback; [chains.md](chains.md#evm-reads-over-a-websocket-wsurl)) and once with \`rpcUrl\` only.
Every way talks to anvil itself, which prints the method of every request it serves: upstream
calls are counted there, with nothing in between. Side by side in one run, ${ROUNDS} rounds (after 3 warm-up rounds), in a random order each round; a block is mined
before every read and the server's block-number reuse left to lapse, so every read is cold (no
per-block cache answers). References: \`GET /config\` is one round trip to the backend that reads
no chain (the hop the dApp's own \`multicall\` does not make); "fetch alone" is the batch's request
sent without the library (the platform's \`fetch\`, \`JSON.parse\`); "in process" is the \`wsUrl\` backend
asked through Fastify's \`inject\` in the bench's own process (its own work for the batch, the
upstream call included, without the hop); viem over WebSocket is the dApp's \`multicall\` had it a
WebSocket endpoint of its own. "HTTP" counts requests from the library to the backend (0: viem
talks to the node itself), "upstream" the JSON-RPC requests that reached the node. Wall time ${wall.toFixed(1)} s.

| Way | median (ms) | p90 (ms) | HTTP requests | upstream RPC calls | median vs one getBalances |
|---|---:|---:|---:|---:|---:|
${rows.join('\n')}

Goals (issue 19), against viem's \`multicall\` as wagmi builds it (its \`http\` transport, defaults):
${goals.join('\n')}

What it means: one \`getBalances\` is one HTTP request and one upstream call: a single
\`aggregate3\` \`eth_call\` at \`latest\` whose first call is Multicall3's \`getBlockNumber\`, so the
answer names its block without an \`eth_blockNumber\` first (with a block number in hand, the call
is pinned to it; ≤ 2 either way). 50 separate reads are 50 requests and 50 upstream calls, and they
queue behind each other on the way. viem's \`multicall\` splits its calls into 1 KiB chunks by
default, so 50 \`balanceOf\` calls are two \`eth_call\`s in parallel, each over HTTP.

Where a cold batch's time goes, from the reference rows: the hop alone (\`GET /config\`, one round
trip to the backend that reads no chain) is ${at('GET /config (the hop alone)')} ms of it, the round trip the dApp's own
\`multicall\` never makes. The backend's own work, the \`aggregate3\` over its WebSocket included,
is ${at('POST /balances in process (the backend alone)')} ms in process (\`inject\` has costs of its own, so the rows do not add up). The same
request sent with \`fetch\` and \`JSON.parse\` alone takes ${at('POST /balances with fetch alone (no library)')} ms (${(fetchAlone / viem).toFixed(2)}× viem's \`multicall\`):
the library's HTTP layer adds ${(batchMedian - fetchAlone).toFixed(1)} ms to that (ky builds a \`Request\` and clones it on every
call, retries off or not; the answer is checked against its schema). The backend earns
back part of the hop at the node: it writes and reads \`aggregate3\` by hand (viem's ABI coder
took most of its CPU time for a batch) and keeps a WebSocket open to the node (\`wsUrl\`), where
each dApp read over HTTP pays the request work at both ends. Without \`wsUrl\` the same batch takes
${at('one getBalances, backend without wsUrl')} ms. On loopback, against the very node the dApp could call itself, that is not the
whole hop: a cold batch is ${(batchMedian / viem).toFixed(2)}× viem's \`multicall\` over HTTP, and a dApp with a WebSocket
endpoint of its own makes no hop at all (${at("viem's multicall over WebSocket (dApp)")} ms).

Read again within the block — what a UI that polls or re-renders does — the batch answers from the
per-block cache with no upstream call: ${at('one getBalances, again in the same block')} ms against ${at("viem's multicall, again in the same block")} ms for viem's
\`multicall\`, which asks the node again. The batch also needs no RPC endpoint in the dApp and reads
any chains in the same request.
`
  const path = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'benchmarks.md')
  const current = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmarks\n'
  const pattern = /## Balances in one request\n[\s\S]*?(?=\n## |$)/
  const updated = pattern.test(current)
    ? current.replace(pattern, `${section.trimEnd()}\n`)
    : `${current.trimEnd()}\n\n${section}`
  writeFileSync(path, updated.endsWith('\n') ? updated : `${updated}\n`)
  console.log(rows.join('\n'))
  console.log(goals.join('\n'))
  console.log('wrote docs/benchmarks.md (## Balances in one request)')
}

const serveAt = process.argv.indexOf('--serve')
if (serveAt > 0) {
  await serve(process.argv[serveAt + 1]!, process.argv[serveAt + 2]!, process.argv[serveAt + 3]!)
} else await main()
