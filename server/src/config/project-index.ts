import type { ProjectConfig, ProjectsConfig } from './projects-schema'

/** Fast lookups over the validated projects file. */
export interface ProjectIndex {
  byAppKey(appKey: string): ProjectConfig | undefined
  byId(projectId: string): ProjectConfig | undefined
  all(): readonly ProjectConfig[]
}

export function createProjectIndex(config: ProjectsConfig): ProjectIndex {
  const keys = new Map<string, ProjectConfig>()
  const ids = new Map<string, ProjectConfig>()
  for (const project of config.projects) {
    ids.set(project.projectId, project)
    for (const key of project.appKeys) keys.set(key, project)
  }
  return {
    byAppKey: (appKey) => keys.get(appKey),
    byId: (projectId) => ids.get(projectId),
    all: () => config.projects,
  }
}

export const hasChain = (project: ProjectConfig, chainId: string): boolean =>
  project.networks.some((n) => n.chainId === chainId)

/** A wallet the project enabled: one of its `wallets`, or one of its `partnerWallets`. */
export const hasWallet = (project: ProjectConfig, walletSlug: string): boolean =>
  project.wallets.includes(walletSlug) ||
  (project.partnerWallets?.some((partner) => partner.id === walletSlug) ?? false)

/**
 * A project without `allowedOrigins` accepts every origin but `null`; the opaque origin `null`
 * (sandboxed iframes, `data:`/`file:` pages) is never accepted, since any site can produce it.
 */
export const allowsOrigin = (project: ProjectConfig, origin: string): boolean =>
  origin !== 'null' &&
  (project.allowedOrigins === undefined || project.allowedOrigins.includes(origin))
