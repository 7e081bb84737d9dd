import { readFile } from 'node:fs/promises'
import { type NetworkInfo, supportNetworks, supportWallets } from 'scope-connect'
import { describeIssue } from 'scope-connect/wire'
import { type ProjectConfig, type ProjectsConfig, ProjectsFileSchema } from './projects-schema'

/** The projects file is wrong; `problems` name each bad field, e.g. `projects[0].networks[1].chainId`. */
export class ProjectsConfigError extends Error {
  override readonly name = 'ProjectsConfigError'
  constructor(
    readonly problems: string[],
    source = 'projects file',
  ) {
    super(`invalid ${source}:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
  }
}

/** `projects[0].networks[1].chainId` from a zod path. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = ''
  for (const part of path) {
    out += typeof part === 'number' ? `[${part}]` : out === '' ? String(part) : `.${String(part)}`
  }
  return out === '' ? '(root)' : out
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let at = input
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined
    at = (at as Record<PropertyKey, unknown>)[key]
  }
  return at
}

/**
 * A built-in network of the library's registry. Not `getNetworkInfo`: it also answers for networks
 * registered in this process (a Client in the same process that loaded a config).
 */
export const builtInNetwork = (chainId: string): NetworkInfo | undefined =>
  supportNetworks.find((network) => network.chainId === chainId)

/** The namespaces the chain adapters serve: `eip155:<decimal>`, `solana:<base58 genesis prefix>`. */
const SERVED_CHAIN = /^(eip155:[1-9][0-9]{0,15}|solana:[1-9A-HJ-NP-Za-km-z]{32})$/

/** What the shape cannot say about one network: a chain the server serves, described enough. */
function networkProblems(network: ProjectConfig['networks'][number], at: string): string[] {
  const problems: string[] = []
  const { chainId } = network
  if (!SERVED_CHAIN.test(chainId)) {
    return [
      `${at}.chainId: unsupported chain ${chainId} (eip155:<decimal chain id> or solana:<32-character genesis-hash prefix>)`,
    ]
  }
  if (builtInNetwork(chainId) === undefined) {
    for (const field of ['name', 'nativeCurrency'] as const) {
      if (network[field] === undefined)
        problems.push(`${at}.${field}: required for ${chainId}, which is not a built-in chain`)
    }
  }
  if (chainId.startsWith('solana:')) {
    for (const field of ['wsUrl', 'multicall3', 'publicRpcUrls'] as const) {
      if (network[field] !== undefined) problems.push(`${at}.${field}: only for eip155 chains`)
    }
  }
  return problems
}

/**
 * A built-in wallet of the library's registry. Not `getWalletInfo`: it also answers for the partner
 * wallets registered in this process (a Client in the same process that loaded a config).
 */
const builtIn = (id: string): boolean => supportWallets.some((wallet) => wallet.id === id)

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value)
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value
  } catch {
    return false
  }
}

/**
 * Shape first, then what the shape cannot say: chains the server serves (a chain the registry lacks
 * names itself and its currency), known wallets, unique ids and keys.
 */
export function parseProjectsConfig(value: unknown, source?: string): ProjectsConfig {
  const parsed = ProjectsFileSchema.safeParse(value)
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (i) => `${formatPath(i.path)}: ${describeIssue(i, valueAt(value, i.path) === undefined)}`,
    )
    throw new ProjectsConfigError(problems, source)
  }
  const problems: string[] = []
  const projectIds = new Set<string>()
  const appKeys = new Set<string>()
  parsed.data.projects.forEach((project, p) => {
    const at = `projects[${p}]`
    if (projectIds.has(project.projectId)) problems.push(`${at}.projectId: duplicate projectId`)
    projectIds.add(project.projectId)
    project.appKeys.forEach((key, k) => {
      if (appKeys.has(key)) problems.push(`${at}.appKeys[${k}]: app key used twice`)
      appKeys.add(key)
    })
    const chains = new Set<string>()
    project.networks.forEach((network, n) => {
      problems.push(...networkProblems(network, `${at}.networks[${n}]`))
      if (chains.has(network.chainId)) problems.push(`${at}.networks[${n}].chainId: duplicate`)
      chains.add(network.chainId)
    })
    const partnerIds = new Set<string>()
    project.partnerWallets?.forEach((partner, i) => {
      const field = `${at}.partnerWallets[${i}]`
      if (builtIn(partner.id)) {
        problems.push(
          `${field}.id: ${partner.id} is a built-in wallet's id (a partner needs its own)`,
        )
      }
      if (partnerIds.has(partner.id)) problems.push(`${field}.id: duplicate partner wallet id`)
      partnerIds.add(partner.id)
      if (partner.mobile === undefined && partner.relay === undefined) {
        problems.push(`${field}: declares neither mobile nor relay`)
      }
    })
    project.wallets.forEach((wallet, w) => {
      if (!partnerIds.has(wallet) && !builtIn(wallet)) {
        problems.push(`${at}.wallets[${w}]: unknown wallet ${wallet}`)
      }
    })
    project.allowedOrigins?.forEach((origin, o) => {
      if (!isOrigin(origin)) {
        problems.push(`${at}.allowedOrigins[${o}]: not an origin (scheme://host[:port])`)
      }
    })
  })
  if (problems.length > 0) throw new ProjectsConfigError(problems, source)
  return parsed.data
}

export async function loadProjectsFile(path: string): Promise<ProjectsConfig> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    throw new ProjectsConfigError([`cannot read: ${(error as Error).message}`], path)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new ProjectsConfigError([`not JSON: ${(error as Error).message}`], path)
  }
  return parseProjectsConfig(json, path)
}
