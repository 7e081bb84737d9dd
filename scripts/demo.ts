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
 *   --backend <url>     reuse a running backend (`npm start`: http://127.0.0.1:8787) instead of
 *                       starting one and a chain
 *
 * `DEV_CHAIN_PORT` (default 8545) and `ANVIL_BIN` as for `npm start`. Ctrl-C stops everything.
 * A taken port ends the demo with what to do (`PortTakenError`), not a bare EADDRINUSE.
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
  /** A running backend to reuse (e.g. `npm start`'s): no backend or chain is started. */
  backend?: string
}

/** A port the demo needs is taken; the message says which option moves it, or how to reuse. */
export class PortTakenError extends Error {
  override readonly name = 'PortTakenError'
  constructor(
    readonly port: number,
    readonly option: '--port' | '--dapp-port' | '--wallet-port',
  ) {
    super(
      option === '--port'
        ? `port ${port} is taken: is \`npm start\` (or another demo) running? Reuse its backend with \`npm run demo -- --backend http://127.0.0.1:${port}\`, or start the demo's own on another port with \`npm run demo -- --port 0\` (0: any free port).`
        : `port ${port} (${option === '--dapp-port' ? 'the dApp page' : 'the wallet simulator page'}) is taken: is another demo running? Stop it, or pass another port: \`npm run demo -- ${option} 0\` (0: any free port).`,
    )
  }
}

/** Runs `listen`; a taken port becomes a `PortTakenError` naming the option that moves it. */
async function listening<T>(
  port: number,
  option: PortTakenError['option'],
  listen: () => Promise<T>,
): Promise<T> {
  try {
    return await listen()
  } catch (error) {
    if ((error as { code?: unknown }).code === 'EADDRINUSE') throw new PortTakenError(port, option)
    throw error
  }
}

/** Checks that a scope-connect backend with the sample project answers at `url`. */
async function checkBackend(url: string): Promise<string> {
  const base = url.replace(/\/+$/, '')
  const answer = await fetch(`${base}/api/v1/connect/config`, {
    headers: { 'x-app-key': APP_KEY },
    signal: AbortSignal.timeout(5_000),
  }).catch((error: unknown) => {
    throw new Error(`no backend answers at ${base} (${String(error)}): is \`npm start\` running?`)
  })
  if (!answer.ok) {
    throw new Error(
      `${base} answered ${answer.status} for the sample project (app key ${APP_KEY}).`,
    )
  }
  return base
}

/** The backend and chain of the demo: started here, as `npm start` does. */
async function startBackend(
  options: DemoOptions,
  stops: Array<() => Promise<void> | void>,
): Promise<{ url: string; rpcUrl: string }> {
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
  stops.push(() => Promise.all([store.close(), mailbox.close()]).then(() => {}))
  const port = options.port ?? 8787
  const backend: RunningServer = await listening(port, '--port', () =>
    startServer({
      projects: parseProjectsConfig(raw),
      store,
      logger: { level: 'warn' },
      port,
      // A fresh relay signing key per run (tokens die with the process, as the demo does).
      relay: { mailbox, signingKeys: [new Uint8Array(randomBytes(32))] },
    }),
  )
  stops.push(() => backend.close())
  return { url: backend.url, rpcUrl: chain.rpcUrl }
}

/** A running demo: its URLs and how to stop it. */
export interface RunningDemo {
  backendUrl: string
  dappUrl: string
  walletUrl: string
  /** The dev chain's RPC URL; null when a running backend is reused (`backend`). */
  rpcUrl: string | null
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
    const backend = options.backend
      ? { url: await checkBackend(options.backend), rpcUrl: null }
      : await startBackend(options, stops)
    const walletPort = options.walletPort ?? 5174
    const wallet = await listening(walletPort, '--wallet-port', () =>
      serveWalletPage(walletPort, { appKey: APP_KEY }),
    )
    stops.push(() => closeHttp(wallet.server))
    const dappPort = options.dappPort ?? 5173
    const dapp = await listening(dappPort, '--dapp-port', () =>
      serveDapp(dappPort, {
        backend: backend.url,
        appKey: APP_KEY,
        walletUrl: wallet.url,
        injectTestWallet: true,
      }),
    )
    stops.push(() => closeHttp(dapp.server))
    return {
      backendUrl: backend.url,
      dappUrl: dapp.url,
      walletUrl: wallet.url,
      rpcUrl: backend.rpcUrl,
      close,
    }
  } catch (error) {
    await close()
    throw error
  }
}

/** Where `runDemoCommand` writes: `process.stdout` and `process.stderr`, or a test's buffer. */
interface Output {
  write(text: string): unknown
}

/**
 * `npm run demo -- …args`: starts the demo (`DEV_CHAIN_PORT` from `env`) and prints its URLs to
 * `out`, or prints why it cannot start to `err` and resolves with null (the command exits 1).
 */
export async function runDemoCommand(
  args: string[],
  env: Record<string, string | undefined>,
  out: Output,
  err: Output,
): Promise<RunningDemo | null> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string', default: '8787' },
      'dapp-port': { type: 'string', default: '5173' },
      'wallet-port': { type: 'string', default: '5174' },
      backend: { type: 'string' },
    },
  })
  try {
    const demo = await startDemo({
      port: Number(values.port),
      dappPort: Number(values['dapp-port']),
      walletPort: Number(values['wallet-port']),
      devChainPort: Number(env.DEV_CHAIN_PORT ?? DEFAULT_DEV_CHAIN_PORT),
      ...(values.backend ? { backend: values.backend } : {}),
    })
    out.write(
      [
        'scope-connect demo',
        `  dApp page:        ${demo.dappUrl}`,
        `  wallet simulator: ${demo.walletUrl}`,
        `  backend:          ${demo.backendUrl} (app key ${APP_KEY})`,
        demo.rpcUrl
          ? `  dev chain:        ${demo.rpcUrl} (eip155:${DEV_CHAIN_ID})`
          : `  dev chain:        the running backend's`,
        `Open the dApp page; docs/demo.md walks through it. Ctrl-C stops.`,
        '',
      ].join('\n'),
    )
    return demo
  } catch (error) {
    err.write(`demo: ${error instanceof Error ? error.message : String(error)}\n`)
    return null
  }
}

const isEntryPoint = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1])
if (isEntryPoint) {
  const demo = await runDemoCommand(
    process.argv.slice(2),
    process.env,
    process.stdout,
    process.stderr,
  )
  if (!demo) process.exit(1)
  const stop = () => {
    void demo.close().then(() => process.exit(0))
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}
