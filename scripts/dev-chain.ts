/**
 * The local EVM chain `npm start` runs beside the backend: anvil (from the `@foundry-rs/anvil` npm
 * package) on 127.0.0.1, chain id 31337, with anvil's ten dev accounts funded (10,000 ETH each), so
 * the sample project's `eip155:31337` answers balance reads on a fresh machine.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'

export const DEV_CHAIN_ID = 31337
/** Anvil's first dev account (mnemonic "test test … junk"): funded with 10,000 ETH. */
export const DEV_ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
export const DEFAULT_DEV_CHAIN_PORT = 8545

/** The anvil binary: `ANVIL_BIN` (e.g. one from foundryup), else the `@foundry-rs/anvil` package's. */
const ANVIL =
  process.env.ANVIL_BIN ?? fileURLToPath(new URL('../node_modules/.bin/anvil', import.meta.url))
const READY_TIMEOUT_MS = 10_000

export interface DevChain {
  rpcUrl: string
  /** False when an anvil that was already running on the port is reused. */
  owned: boolean
  stop(): void
}

/** The chain id a JSON-RPC endpoint answers, or undefined when nothing answers. */
export async function chainIdAt(rpcUrl: string): Promise<number | undefined> {
  try {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(500),
    })
    const body = (await response.json()) as { result?: string }
    return body.result === undefined ? undefined : Number(body.result)
  } catch {
    return undefined
  }
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/**
 * Starts anvil on `port` (0: a free one). An anvil of chain 31337 already listening on the port is
 * reused; a port held by anything else moves the chain to a free port. Resolves once the chain
 * answers. Rejects (with a readable reason) when anvil cannot run or does not come up in time.
 */
export async function startDevChain(port: number = DEFAULT_DEV_CHAIN_PORT): Promise<DevChain> {
  if (port !== 0 && !(await portIsFree(port))) {
    const rpcUrl = `http://127.0.0.1:${port}`
    if ((await chainIdAt(rpcUrl)) === DEV_CHAIN_ID) return { rpcUrl, owned: false, stop() {} }
    port = 0 // taken by something else
  }
  if (port === 0) port = await freePort()
  if (!existsSync(ANVIL)) throw new Error(`${ANVIL} is missing (npm install @foundry-rs/anvil)`)
  const rpcUrl = `http://127.0.0.1:${port}`
  const child = spawn(
    ANVIL,
    ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(DEV_CHAIN_ID), '--silent'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  )
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000)
  })
  const failed = new Promise<never>((_, reject) => {
    child.once('error', (error) => reject(new Error(`cannot run anvil: ${error.message}`)))
    child.once('exit', (code, signal) =>
      reject(new Error(`anvil exited (${signal ?? code}) ${stderr.trim()}`.trim())),
    )
  })
  failed.catch(() => {}) // observed below; avoid an unhandled rejection after success
  const deadline = Date.now() + READY_TIMEOUT_MS
  const ready = (async () => {
    while (Date.now() < deadline) {
      if ((await chainIdAt(rpcUrl)) === DEV_CHAIN_ID) return
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    throw new Error(`anvil did not answer on ${rpcUrl} within ${READY_TIMEOUT_MS} ms`)
  })()
  try {
    await Promise.race([ready, failed])
  } catch (error) {
    await stop(child)
    throw error
  }
  return { rpcUrl, owned: true, stop: () => void stop(child) }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = once(child, 'exit')
  child.kill('SIGTERM')
  await exited
}
