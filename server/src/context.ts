import type { ChainRegistry } from './chains'
import type { ProjectIndex } from './config/project-index'
import type { ProjectConfig } from './config/projects-schema'
import { DEFAULT_RATE_LIMITS, type RateLimiter, type RateLimitPolicy } from './rate-limit'
import type { Store } from './store/types'

/** Everything a route needs, built once by `buildApp`. */
export interface AppContext {
  projects: ProjectIndex
  store: Store
  chains: ChainRegistry
  limiter: RateLimiter
  now: () => number
  sessionTtlMs: number
  /** Server-wide: callbacks carry no credential that names a project. */
  callbackIpPolicy: RateLimitPolicy
  /** Proxy addresses/CIDRs whose X-Forwarded-For is believed; empty: the socket peer is the caller. */
  trustProxy: readonly string[]
}

/** The project's override of a default policy (the name stays, so headers stay comparable). */
export function policyFor(project: ProjectConfig, group: 'appKey' | 'session'): RateLimitPolicy {
  return { ...DEFAULT_RATE_LIMITS[group], ...project.rateLimits?.[group] }
}
