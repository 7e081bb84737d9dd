/**
 * `npm run demo`: everything a person needs to click through scope-connect in a browser, in one
 * process:
 *
 *   - the backend on the embedded default (in-memory store and relay mailbox, the sample project,
 *     app key `sample-app-key`) with a local dev chain (anvil, `eip155:31337`), as `npm start`;
 *   - the example dApp page (examples/dapp), with the wallet simulator's injected test-key wallet;
 *   - the wallet simulator page (examples/wallet-simulator), which answers universal links and
 *     pairs over the relay.
 *
 * Both pages are bundled with esbuild at startup. Options (0: a free port):
 *
 *   --port <n>          the backend (default 8787)
 *   --dapp-port <n>     the dApp page (default 5173)
 *   --wallet-port <n>   the wallet simulator page (default 5174)
 *
 * `DEV_CHAIN_PORT` (default 8545) and `ANVIL_BIN` as for `npm start`. Ctrl-C stops everything.
 */
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { Server } from 'node:http'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { serveDapp } from '../examples/dapp/serve'
import { serveWalletPage } from '../examples/wallet-simulator/serve'
import { parseProjectsConfig } from '../server/src/config/projects'
import { createMemoryMailbox } from '../server/src/relay/mailbox-memory'
import { type RunningServer, startServer } from '../server/src/server'
import { createMemoryStore } from '../server/src/store/memory'
import { DEFAULT_DEV_CHAIN_PORT, DEV_CHAIN_ID, type DevChain, startDevChain } from './dev-chain'

const SAMPLE = fileURLToPath(new URL('../server/projects.sample.json', import.meta.url))
const APP_KEY = 'sample-app-key'

/** Options of `startDemo` (ports; 0 picks a free one). */
export interface DemoOptions {
  port?: number
  dappPort?: number
  walletPort?: number
  devChainPort?: number
}

/** A running demo: its URLs and how to stop it. */
export interface RunningDemo {
  backendUrl: string
  dappUrl: string
  walletUrl: string
  rpcUrl: string
  close(): Promise<void>
}

function closeHttp(server: Server): Promise<void> {
  server.closeAllConnections()
  return new Promise((resolve) => server.close(() => resolve()))
}

/**
 * Starts the dev chain, the backend and both pages. Rejects (after stopping what did start) when
 * anvil cannot run, a port is taken, or a page does not build.
 */
export async function startDemo(options: DemoOptions = {}): Promise<RunningDemo> {
  const stops: Array<() => Promise<void> | void> = []
  const close = async () => {
    for (const stop of stops.splice(0).reverse()) await stop()
  }
  try {
    const chain: DevChain = await startDevChain(options.devChainPort ?? DEFAULT_DEV_CHAIN_PORT)
    stops.push(() => chain.stop())
    // The sample project, with eip155:31337 pointed at the chain (its port may differ from 8545).
    const raw = JSON.parse(readFileSync(SAMPLE, 'utf8')) as {
      projects: Array<{ networks: Array<{ chainId: string; rpcUrl?: string }> }>
    }
    for (const project of raw.projects) {
      for (const network of project.networks) {
        if (network.chainId === `eip155:${DEV_CHAIN_ID}`) network.rpcUrl = chain.rpcUrl
      }
    }
    const store = createMemoryStore()
    const mailbox = createMemoryMailbox()
    const backend: RunningServer = await startServer({
      projects: parseProjectsConfig(raw),
      store,
      logger: { level: 'warn' },
      port: options.port ?? 8787,
      // A fresh relay signing key per run (tokens die with the process, as the demo does).
      relay: { mailbox, signingKeys: [new Uint8Array(randomBytes(32))] },
    })
    stops.push(async () => {
      await backend.close()
      await Promise.all([store.close(), mailbox.close()])
    })
    const wallet = await serveWalletPage(options.walletPort ?? 5174, { appKey: APP_KEY })
    stops.push(() => closeHttp(wallet.server))
    const dapp = await serveDapp(options.dappPort ?? 5173, {
      backend: backend.url,
      appKey: APP_KEY,
      walletUrl: wallet.url,
      injectTestWallet: true,
    })
    stops.push(() => closeHttp(dapp.server))
    return {
      backendUrl: backend.url,
      dappUrl: dapp.url,
      walletUrl: wallet.url,
      rpcUrl: chain.rpcUrl,
      close,
    }
  } catch (error) {
    await close()
    throw error
  }
}

const isEntryPoint = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1])
if (isEntryPoint) {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '8787' },
      'dapp-port': { type: 'string', default: '5173' },
      'wallet-port': { type: 'string', default: '5174' },
    },
  })
  try {
    const demo = await startDemo({
      port: Number(values.port),
      dappPort: Number(values['dapp-port']),
      walletPort: Number(values['wallet-port']),
      devChainPort: Number(process.env.DEV_CHAIN_PORT ?? DEFAULT_DEV_CHAIN_PORT),
    })
    process.stdout.write(
      [
        'scope-connect demo',
        `  dApp page:        ${demo.dappUrl}`,
        `  wallet simulator: ${demo.walletUrl}`,
        `  backend:          ${demo.backendUrl} (app key ${APP_KEY})`,
        `  dev chain:        ${demo.rpcUrl} (eip155:${DEV_CHAIN_ID})`,
        `Open the dApp page; docs/demo.md walks through the three flows. Ctrl-C stops.`,
        '',
      ].join('\n'),
    )
    const stop = () => {
      void demo.close().then(() => process.exit(0))
    }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  } catch (error) {
    process.stderr.write(`demo: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  }
}
