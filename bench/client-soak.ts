// Soak: N reads (config and balance, a quarter of them failing) and N/4 signatures made with a real
// key on one Client, recording the root actor's children and the heap every 10% of the run. The
// backend is an in-process test double that answers in the documented wire shapes (no sockets:
// the figure is the Client's own footprint, not the HTTP stack's). Usage:
//   npx tsx --expose-gc bench/client-soak.ts [--ops 100000]
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { Client } from '../src/client'
import { Eip1193Connector } from '../src/connectors/eip1193'

const ops = Number(process.argv[process.argv.indexOf('--ops') + 1] || 100_000)
const account = privateKeyToAccount(generatePrivateKey())

/** Test double of the backend: GET /config and GET /balances, a 403 for chain eip155:1. */
const backend: typeof fetch = async (input) => {
  const url = new URL(input instanceof Request ? input.url : String(input))
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
  if (url.pathname.endsWith('/config'))
    return json(200, { projectId: 'soak', name: 'Soak', networks: [], wallets: [] })
  if (url.searchParams.get('chainId') === 'eip155:1')
    return json(403, { error: { code: 'CHAIN_NOT_ENABLED', message: 'Not enabled.' } })
  return json(200, {
    chainId: url.searchParams.get('chainId'),
    tokenAddress: 'native',
    account: url.searchParams.get('account'),
    raw: '1000000000000000000',
    decimals: 18,
  })
}

/** A wallet with a real key: eth_requestAccounts, eth_chainId, personal_sign. */
const wallet = {
  async request({ method, params }: { method: string; params?: unknown[] }) {
    if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [account.address]
    if (method === 'eth_chainId') return '0x7a69'
    if (method === 'personal_sign')
      return account.signMessage({ message: { raw: params?.[0] as `0x${string}` } })
    throw Object.assign(new Error(`unsupported ${method}`), { code: 4200 })
  },
  on() {},
  removeListener() {},
}

const client = new Client({
  baseUrl: 'http://127.0.0.1:8787',
  appKey: 'soak',
  fetchImpl: backend,
  connectors: [new Eip1193Connector('metamask', () => wallet as never)],
  mobile: false,
})
await client.selectWallet('metamask', { namespace: 'eip155' })
await client.connect()

const gc = (globalThis as { gc?: () => void }).gc
const heapMb = () => {
  gc?.()
  return process.memoryUsage().heapUsed / 2 ** 20
}
const children = () => Object.keys(client.actor.getSnapshot().children).length
const rows: string[] = []
const record = (done: number) =>
  rows.push(`| ${done.toLocaleString('en')} | ${children()} | ${heapMb().toFixed(1)} |`)

const started = performance.now()
let failures = 0
record(0)
for (let i = 1; i <= ops; i++) {
  const kind = process.env.SOAK_KIND ? Number(process.env.SOAK_KIND) : i % 4
  const op =
    kind === 0
      ? client.signMessage(`soak ${i}`)
      : kind === 1
        ? client.loadConfig()
        : client.getBalance({
            chainId: kind === 2 ? 'eip155:1' : 'eip155:31337',
            tokenAddress: 'native',
            account: account.address,
          })
  await op.catch(() => failures++)
  if (i % (ops / 10) === 0) record(i)
}
const seconds = (performance.now() - started) / 1000
console.log(
  `${ops.toLocaleString('en')} operations (a quarter signatures) in ${seconds.toFixed(1)} s,`,
)
console.log(
  `${failures.toLocaleString('en')} failed as scripted (403), root ${client.actor.getSnapshot().status}`,
)
console.log('\n| operations | root children | heap used (MiB, after gc) |\n|---:|---:|---:|')
console.log(rows.join('\n'))
client.actor.stop()
