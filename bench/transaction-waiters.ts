/**
 * Transaction waiters: the RPC calls a node receives while N long-polls wait on N random hashes
 * (issue 28's attack: hashes nobody sent, so every waiter waits its full 25 s), on anvil with 1 s
 * blocks (EVM) and on the Solana JSON-RPC TEST DOUBLE with 400 ms slots (no validator runs here).
 * The waiters are the backend's own (`TransactionService.follow`, what `GET /transactions` waits
 * on; each wait's first read counted apart), with 500 and 2,000 of them (2,000 from four callers),
 * so the figure is the upstream cost of waiting, beside the issue's "before" figures.
 *
 *   npx tsx bench/transaction-waiters.ts [--window 10]
 *
 * Writes the "## Transaction waiters: RPC calls per head" section of docs/benchmarks.md.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { base58 } from '@scure/base'
import { createMemoryTransactionFeed } from '../server/src/transactions/feed'
import { createTransactionService } from '../server/src/transactions/service'
import { SOLANA_DEVNET } from '../server/test/support/server'
import { startSolanaRpcDouble } from '../server/test/support/solana-rpc-double'
import { startAnvil } from '../test/support/anvil'

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}
const WINDOW_S = arg('window', 10)
const EVM_CHAIN = 'eip155:31337'
const SECTION = '## Transaction waiters: RPC calls per head'

interface Run {
  chain: 'EVM' | 'Solana'
  waiters: number
  callers: number
  before: string
  callsPerSecond: number
  heads: number
  perHead: number
  byMethod: Record<string, number>
  firstReads: number
}

const randomHex = () =>
  `0x${Array.from(crypto.getRandomValues(new Uint8Array(32)), (byte) => byte.toString(16).padStart(2, '0')).join('')}`
const randomSignature = () => base58.encode(crypto.getRandomValues(new Uint8Array(64)))

async function measure(
  chain: Run['chain'],
  chainId: string,
  rpcUrl: string,
  waiters: number,
  callers: number,
  before: string,
  headMethod: string,
  hashOf: () => string,
): Promise<Run> {
  const calls: string[] = []
  const service = createTransactionService([{ chainId, rpcUrl }], {
    feed: createMemoryTransactionFeed(),
    fetch: async (input, init) => {
      const body = JSON.parse(String(init?.body)) as { method: string }
      calls.push(body.method)
      return fetch(input, init)
    },
    waiters: { perCaller: waiters, total: waiters },
  })
  try {
    const hashes = Array.from({ length: waiters }, hashOf)
    const flags = hashes.map(
      (hash, index) => service.follow(chainId, hash, `caller ${index % callers}`)!,
    )
    for (let index = 0; index < hashes.length; index += 50) {
      await Promise.all(
        hashes.slice(index, index + 50).map((hash) => service.read(chainId, hash, true)),
      )
    }
    const firstReads = calls.length
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    // A head seen before counting raised the flag already: lower it.
    await flags[0]!.next(AbortSignal.timeout(1))
    calls.length = 0
    let heads = 0
    const ended = new AbortController()
    const counting = (async () => {
      while (await flags[0]!.next(ended.signal)) heads++
    })()
    await new Promise((resolve) => setTimeout(resolve, WINDOW_S * 1_000))
    ended.abort()
    await counting
    const byMethod: Record<string, number> = {}
    for (const method of calls) byMethod[method] = (byMethod[method] ?? 0) + 1
    const notHead = calls.filter((method) => method !== headMethod).length
    for (const flag of flags) flag.stop()
    return {
      chain,
      waiters,
      callers,
      before,
      callsPerSecond: calls.length / WINDOW_S,
      heads,
      perHead: heads > 0 ? notHead / heads : Number.NaN,
      byMethod,
      firstReads,
    }
  } finally {
    service.close()
  }
}

async function main() {
  const load = loadavg()[0]!.toFixed(1)
  const began = Date.now()
  const runs: Run[] = []
  const anvil = await startAnvil({ args: ['--block-time', '1'] })
  try {
    runs.push(
      await measure(
        'EVM',
        EVM_CHAIN,
        anvil.rpcUrl,
        500,
        1,
        '504 calls/s (one caller)',
        'eth_blockNumber',
        randomHex,
      ),
    )
    runs.push(
      await measure(
        'EVM',
        EVM_CHAIN,
        anvil.rpcUrl,
        2_000,
        4,
        '2,787 calls/s (four callers; CPU saturated)',
        'eth_blockNumber',
        randomHex,
      ),
    )
  } finally {
    await anvil.stop()
  }
  const solana = await startSolanaRpcDouble({ slot: 1_000 })
  let slot = 1_000
  const slots = setInterval(() => solana.setSlot(++slot), 400)
  try {
    runs.push(
      await measure(
        'Solana',
        SOLANA_DEVNET,
        solana.url,
        500,
        1,
        '1,258 calls/s',
        'getSlot',
        randomSignature,
      ),
    )
    runs.push(
      await measure('Solana', SOLANA_DEVNET, solana.url, 2_000, 4, '—', 'getSlot', randomSignature),
    )
  } finally {
    clearInterval(slots)
    await solana.close()
  }
  const rows = runs.map(
    (run) =>
      `| ${run.chain} | ${run.waiters.toLocaleString('en-US')} (${run.callers} caller${run.callers > 1 ? 's' : ''}) | ${run.before} | **${run.callsPerSecond.toFixed(1)} calls/s** | ${run.heads} | ${run.perHead.toFixed(2)} | ${Object.entries(
        run.byMethod,
      )
        .map(([method, count]) => `${method} ${count}`)
        .join(', ')} |`,
  )
  const section = `${SECTION}

\`npx tsx bench/transaction-waiters.ts --window ${WINDOW_S}\` (${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, load ${load} at start, ${Math.round((Date.now() - began) / 1000)} s).
Issue 28's attack, re-run: N long-polls wait on N random hashes nobody sent (each waits its
full 25 s), on anvil with 1 s blocks and on the Solana RPC double with 400 ms slots, for
${WINDOW_S} s, counting every upstream call. The waiters are the backend's own
(\`TransactionService.follow\`, what \`GET /transactions\` waits on); each wait's first read (one
per request, charged by the rate limit: ${runs.map((run) => run.firstReads).join(' / ')} calls) is left out.
"Before" is the issue's figure for the same attack on the code before (every new head re-read every
waited hash: N calls per head). "Per head" is the calls besides the head polls, per new head.

| Chain | Waiters | Before | Now | Heads | Per head | Calls by method |
|---|---|---|---|---|---|---|
${rows.join('\n')}

Per new head: one block read (EVM \`eth_getBlockByNumber\` with its transactions, matched against
every waited hash; a receipt only for a match — none here, the hashes are random) or one
\`getSignatureStatuses\` per 256 unsettled signatures (Solana: 2 for 500, 8 for 2,000), plus the
head polls (\`eth_blockNumber\` / \`getSlot\` every quarter block), whatever the number of waiters.
The waits one caller may hold at once are capped (100 by default, then 429 \`TOO_MANY_WAITERS\`),
so the 500 waiters of one caller above need a raised cap (\`transactions.waiters\`).
`
  writeSection(section)
  process.stdout.write(`${section}\n`)
  process.exit(0)
}

function writeSection(section: string) {
  const file = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'benchmarks.md')
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n'
  const start = text.indexOf(SECTION)
  if (start < 0) {
    writeFileSync(file, `${text.trimEnd()}\n\n${section}`)
    return
  }
  const next = text.indexOf('\n## ', start + 3)
  writeFileSync(file, text.slice(0, start) + section + (next < 0 ? '' : text.slice(next + 1)))
}

void main()
