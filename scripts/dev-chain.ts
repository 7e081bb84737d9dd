/**
 * The local EVM chain `npm start` runs beside the backend: anvil (from the `@foundry-rs/anvil` npm
 * package) on 127.0.0.1, chain id 31337, with anvil's ten dev accounts funded (10,000 ETH each), so
 * the sample project's `eip155:31337` answers balance reads on a fresh machine.
 */
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { chainIdAt, startAnvil } from '../server/src/anvil'

export const DEV_CHAIN_ID = 31337
/** Anvil's first dev account (mnemonic "test test … junk"): funded with 10,000 ETH. */
export const DEV_ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
export const DEFAULT_DEV_CHAIN_PORT = 8545

/** The anvil binary: `ANVIL_BIN` (e.g. one from foundryup), else the `@foundry-rs/anvil` package's. */
const ANVIL =
  process.env.ANVIL_BIN ?? fileURLToPath(new URL('../node_modules/.bin/anvil', import.meta.url))

export interface DevChain {
  rpcUrl: string
  /** False when an anvil that was already running on the port is reused. */
  owned: boolean
  stop(): void
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
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
    if ((await chainIdAt(rpcUrl, 500)) === DEV_CHAIN_ID) return { rpcUrl, owned: false, stop() {} }
    port = 0 // taken by something else
  }
  const anvil = await startAnvil({
    bin: ANVIL,
    chainId: DEV_CHAIN_ID,
    ...(port === 0 ? {} : { port }),
  })
  return { rpcUrl: anvil.rpcUrl, owned: true, stop: () => void anvil.stop() }
}
