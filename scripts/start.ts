/**
 * `npm start`: the backend on the embedded default (one process, in-memory store, the sample
 * project), and beside it a local dev chain (anvil, `eip155:31337`) that the sample project reads
 * balances from, so the README's balance example answers on a fresh machine.
 *
 * Every flag goes to the server CLI (`npm start -- --port 0`). The chain is only started for the
 * sample project (no `--projects` / `PROJECTS_FILE`); when anvil cannot start the server runs
 * without it, with a warning. Environment:
 *
 *   DEV_CHAIN=off        do not start the chain
 *   DEV_CHAIN_PORT=8545  its port (0: a free one; a port held by something else moves it)
 *   ANVIL_BIN=…          another anvil binary (default: the @foundry-rs/anvil package's)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DEFAULT_DEV_CHAIN_PORT, DEV_ACCOUNT, DEV_CHAIN_ID, startDevChain } from './dev-chain'

const SAMPLE = fileURLToPath(new URL('../server/projects.sample.json', import.meta.url))

interface ProjectsFile {
  projects: Array<{ networks: Array<{ chainId: string; rpcUrl?: string }> }>
}

const usesSample =
  !process.argv.slice(2).some((arg) => arg === '--projects' || arg.startsWith('--projects=')) &&
  process.env.PROJECTS_FILE === undefined
const wanted = process.env.DEV_CHAIN !== 'off' && !process.argv.includes('--help')

if (usesSample && wanted) {
  const port = Number(process.env.DEV_CHAIN_PORT ?? DEFAULT_DEV_CHAIN_PORT)
  try {
    const chain = await startDevChain(port)
    process.once('exit', () => chain.stop())
    // The sample project with eip155:31337 pointed at the chain (its port may differ from 8545).
    const projects = JSON.parse(readFileSync(SAMPLE, 'utf8')) as ProjectsFile
    for (const project of projects.projects) {
      for (const network of project.networks) {
        if (network.chainId === `eip155:${DEV_CHAIN_ID}`) network.rpcUrl = chain.rpcUrl
      }
    }
    const dir = mkdtempSync(join(tmpdir(), 'scope-connect-start-'))
    const file = join(dir, 'projects.json')
    writeFileSync(file, JSON.stringify(projects, null, 2))
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
    process.env.PROJECTS_FILE = file
    process.stdout.write(
      `dev chain: anvil on ${chain.rpcUrl} (eip155:${DEV_CHAIN_ID}${chain.owned ? '' : ', already running'}); funded account ${DEV_ACCOUNT}\n`,
    )
  } catch (error) {
    process.stderr.write(
      `dev chain not started (${error instanceof Error ? error.message : String(error)}); ` +
        `balances on eip155:${DEV_CHAIN_ID} will answer 502 until a node listens on ` +
        `http://127.0.0.1:${DEFAULT_DEV_CHAIN_PORT}\n`,
    )
  }
}

await import('../server/src/cli')
