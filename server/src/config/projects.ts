import { readFile } from 'node:fs/promises'
import { type Caip2ChainId, getNetworkInfo, getWalletInfo } from 'scope-connect'
import { describeIssue } from 'scope-connect/wire'
import { type ProjectsConfig, ProjectsFileSchema } from './projects-schema'

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

const known = (lookup: () => unknown): boolean => {
  try {
    lookup()
    return true
  } catch {
    return false
  }
}

/**
 * A built-in wallet's id. Not "any id `getWalletInfo` knows": that also answers the partner wallets
 * registered in this process (a Client in the same process, a test), which are no built-ins.
 */
const isBuiltInWallet = (id: string): boolean => {
  try {
    return !('partner' in getWalletInfo(id))
  } catch {
    return false
  }
}

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value)
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value
  } catch {
    return false
  }
}

/** Shape first, then what the shape cannot say: known chains and wallets, unique ids and keys. */
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
      if (!known(() => getNetworkInfo(network.chainId as Caip2ChainId))) {
        problems.push(`${at}.networks[${n}].chainId: unknown chain ${network.chainId}`)
      }
      if (chains.has(network.chainId)) problems.push(`${at}.networks[${n}].chainId: duplicate`)
      chains.add(network.chainId)
    })
    const partnerIds = new Set<string>()
    project.partnerWallets?.forEach((partner, i) => {
      const field = `${at}.partnerWallets[${i}]`
      if (isBuiltInWallet(partner.id)) {
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
      if (!partnerIds.has(wallet) && !isBuiltInWallet(wallet)) {
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
