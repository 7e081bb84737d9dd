import { type ChildProcess, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { freePort, stopChild } from './child-process'

export { freePort }

export interface RunningAnvil {
  rpcUrl: string
  port: number
  chainId: number
  stop(): Promise<void>
}

export interface StartAnvilOptions {
  /** Default 31337 (anvil's own default). */
  chainId?: number
  /** Reuse a port; a free one otherwise. */
  port?: number
  /** Extra CLI flags, e.g. ['--block-time', '1']. */
  args?: string[]
  /** Another anvil binary (e.g. one from foundryup); default the `@foundry-rs/anvil` package's. */
  bin?: string
  /**
   * Called with the method of every JSON-RPC request anvil serves (HTTP or WebSocket), from the
   * line it prints for each: counts upstream calls at the node itself.
   */
  onRequest?: (method: string) => void
}

const READY_TIMEOUT_MS = 15_000
/**
 * The `@foundry-rs/anvil` package's binary (an optional peer of `@scope-connect/server`, a
 * devDependency of the repository), found from this module as Node finds packages.
 */
function anvilBin(): string {
  try {
    return createRequire(import.meta.url).resolve('@foundry-rs/anvil/bin.mjs')
  } catch {
    throw new Error(
      'anvil: true needs the @foundry-rs/anvil package (npm install -D @foundry-rs/anvil)',
    )
  }
}

/**
 * Starts a real anvil EVM node on 127.0.0.1 and resolves once it is listening and answers
 * eth_chainId. Its ten default dev accounts (mnemonic "test test ... junk") are funded with
 * 10 000 ETH each.
 */
export async function startAnvil(options: StartAnvilOptions = {}): Promise<RunningAnvil> {
  // A free port can be taken between probing and binding; try a few times.
  let lastError: unknown
  for (let attempt = 0; attempt < (options.port ? 1 : 3); attempt++) {
    const port = options.port ?? (await freePort())
    try {
      return await launch(port, options)
    } catch (err) {
      lastError = err
    }
  }
  throw lastError
}

async function launch(port: number, options: StartAnvilOptions): Promise<RunningAnvil> {
  const chainId = options.chainId ?? 31337
  const bin = options.bin ?? anvilBin()
  // Not --silent: anvil then prints "Listening on <address>" once it holds the port, which tells
  // this child from another test's anvil that took the port between probing and binding (both
  // answer eth_chainId 31337), and a line per request it serves (`onRequest`).
  const child = spawn(
    bin,
    ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(chainId)].concat(
      options.args ?? [],
    ),
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const bound = `Listening on 127.0.0.1:${port}`
  let listening = false
  let output = ''
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000)
    listening ||= output.includes(bound)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const onRequest = options.onRequest
  if (onRequest) {
    let partial = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n')
      partial = lines.pop() ?? ''
      for (const line of lines)
        if (/^[a-z]+_[A-Za-z0-9]+$/.test(line.trim())) onRequest(line.trim())
    })
  }
  let spawnError: Error | undefined
  child.on('error', (err) => {
    spawnError = new Error(`cannot run ${bin} (npm install @foundry-rs/anvil): ${err.message}`)
  })

  const rpcUrl = `http://127.0.0.1:${port}`
  const deadline = Date.now() + READY_TIMEOUT_MS
  while (Date.now() < deadline && !spawnError && child.exitCode === null && !child.signalCode) {
    if (listening && (await chainIdAt(rpcUrl)) === chainId) {
      return running(child, rpcUrl, port, chainId)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  await stopChild(child)
  throw spawnError ?? new Error(`anvil on port ${port} did not start:\n${output}`)
}

function running(child: ChildProcess, rpcUrl: string, port: number, chainId: number): RunningAnvil {
  let stopped: Promise<void> | undefined
  return {
    rpcUrl,
    port,
    chainId,
    stop() {
      stopped ??= stopChild(child)
      return stopped
    },
  }
}

/** The chain id a JSON-RPC endpoint answers, or undefined when nothing (or no number) answers. */
export async function chainIdAt(rpcUrl: string, timeoutMs = 1_000): Promise<number | undefined> {
  try {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(timeoutMs),
    })
    const body = (await response.json()) as { result?: string }
    return body.result ? Number(body.result) : undefined
  } catch {
    return undefined
  }
}
