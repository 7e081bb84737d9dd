/**
 * WalletConnect, measured side by side in one run (issue 26):
 *
 * 1. Connect → approved over the loopback relay double (test/support/walletconnect-relay-double.ts):
 *    `WalletConnectConnector.connect()` against sign-client used directly (`connect()` +
 *    `approval()`, the floor), the same sign-client wallet (viem key) pairing from the `wc:` URI.
 *    Warm clients (started once); each round is a fresh proposal, pairing and session.
 * 2. Sizes from the packed tarball (esbuild, minified, gzip -9): the connector's chunk, the
 *    WalletConnect part of an app (`Client` + `WalletConnectConnector` with sign-client bundled
 *    through `importSignClient`), against AppKit's 258.6 KB gzip; and the `Client` entry.
 *
 *   npx tsx bench/walletconnect-connect.ts [--rounds 20] [--no-size]
 */
import { SignClient } from '@walletconnect/sign-client'
import { WalletConnectConnector } from '../src/connectors'
import { startWalletConnectRelayDouble } from '../test/support/walletconnect-relay-double'
import {
  MemoryWalletConnectStorage,
  startWalletConnectWallet,
} from '../test/support/walletconnect-wallet'
import { kb, measure } from './bundle-measure'

const args = process.argv.slice(2)
const ROUNDS = Number(args[args.indexOf('--rounds') + 1]) || 20
const CHAIN = 'eip155:31337'
const metadata = { name: 'Bench dApp', description: 'bench', url: 'https://dapp.test', icons: [] }
const namespaces = {
  eip155: {
    chains: [CHAIN],
    methods: ['personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction'],
    events: ['chainChanged', 'accountsChanged'],
  },
}

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
  return { median: at(0.5), p95: at(0.95), min: sorted[0] ?? 0 }
}

async function timings() {
  const relay = await startWalletConnectRelayDouble()
  const wallet = await startWalletConnectWallet({ relayUrl: relay.url })
  const connector = new WalletConnectConnector({
    projectId: 'bench',
    metadata,
    relayUrl: relay.url,
    chains: [CHAIN],
    storage: new MemoryWalletConnectStorage(),
    importSignClient: () => import('@walletconnect/sign-client'),
  })
  // disconnect() ends the connector's subscriptions: the wallet "scans" each new URI.
  const scan = () =>
    connector.subscribe((event) => {
      if (event.type === 'displayUri') void wallet.pair(event.uri)
    })
  scan()
  // Warm-up: both clients started and their sockets open.
  await connector.connect()
  await connector.disconnect()
  const direct = await SignClient.init({
    projectId: 'bench',
    relayUrl: relay.url,
    metadata,
    storage: new MemoryWalletConnectStorage(),
    logger: 'silent',
    telemetryEnabled: false,
  })
  const ours: number[] = []
  const floor: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate the order so neither side always runs on a warmer relay.
    const runs = [
      async () => {
        scan()
        const t0 = performance.now()
        await connector.connect()
        ours.push(performance.now() - t0)
        await connector.disconnect()
      },
      async () => {
        const t0 = performance.now()
        const { uri, approval } = await direct.connect({ optionalNamespaces: namespaces })
        void wallet.pair(uri ?? '')
        const session = await approval()
        floor.push(performance.now() - t0)
        await direct.disconnect({
          topic: session.topic,
          reason: { code: 6000, message: 'User disconnected.' },
        })
      },
    ]
    if (round % 2) runs.reverse()
    for (const run of runs) await run()
  }
  await wallet.close()
  await direct.core.relayer.transportClose()
  await relay.close()
  return { ours: stats(ours), floor: stats(floor) }
}

async function sizes() {
  const { createConsumer, packTarball } = await import('../test/support/packed')
  const consumer = createConsumer(packTarball(), ['@walletconnect/sign-client'])
  try {
    const connectorAlone = await measure(
      'esbuild',
      "export { WalletConnectConnector } from 'scope-connect/connectors'",
      consumer.dir,
    )
    const app = await measure(
      'esbuild',
      [
        "import { Client } from 'scope-connect/client'",
        'export const start = async () => {',
        "  const { WalletConnectConnector } = await import('scope-connect/connectors')",
        '  return new Client({ baseUrl: "https://api.example", appKey: "k", connectors: [',
        '    new WalletConnectConnector({ projectId: "p", metadata: { name: "", description: "", url: "", icons: [] },',
        "      importSignClient: () => import('@walletconnect/sign-client') }),",
        '  ] })',
        '}',
      ].join('\n'),
      consumer.dir,
    )
    const client = await measure(
      'esbuild',
      "export { Client } from 'scope-connect/client'",
      consumer.dir,
    )
    return { connectorAlone, app, client }
  } finally {
    consumer.remove()
  }
}

const t = await timings()
console.log(`connect → approved over the loopback relay double, ${ROUNDS} rounds each (ms)`)
console.log('| | median | p95 | min |')
console.log('|---|---|---|---|')
for (const [name, s] of [
  ['`WalletConnectConnector.connect()`', t.ours],
  ['sign-client directly (`connect()` + `approval()`, the floor)', t.floor],
] as const) {
  console.log(`| ${name} | ${s.median.toFixed(1)} | ${s.p95.toFixed(1)} | ${s.min.toFixed(1)} |`)
}
if (!args.includes('--no-size')) {
  const s = await sizes()
  const lazyGzip = s.app.lazy.reduce((sum, chunk) => sum + chunk.gzip, 0)
  console.log('\nsizes from the packed tarball (esbuild, minified, gzip -9)')
  console.log(
    `- WalletConnectConnector alone (sign-client not bundled): ${kb(s.connectorAlone.total.gzip)}`,
  )
  console.log(
    `- app Client + WalletConnect: initial ${kb(s.app.initial.gzip)}, lazy ${kb(lazyGzip)}, total ${kb(s.app.total.gzip)}`,
  )
  console.log(
    `- Client entry alone: initial ${kb(s.client.initial.gzip)} (budget: test/package/budgets.test.ts)`,
  )
  console.log('- AppKit (createAppKit, one network), docs/bundle-size.md: 258.58 KB initial gzip')
}
process.exit(0)
