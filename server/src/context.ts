import type { ChainRegistry } from './chains'
import type { ProjectIndex } from './config/project-index'
import type { ProjectConfig } from './config/projects-schema'
import type { ConnectionCap } from './http/connection-limits'
import type { StoreOutages } from './http/store-outages'
import { DEFAULT_RATE_LIMITS, type RateLimiter, type RateLimitPolicy } from './rate-limit'
import type { PollWindows } from './sessions/poll-windows'
import type { SessionEvents } from './store/session-events'
import type { Store } from './store/types'
import type { TransactionService } from './transactions/service'

/** Everything a route needs, built once by `buildApp`. */
export interface AppContext {
  projects: ProjectIndex
  store: Store
  /** Announces session changes to long-polls waiting on any instance. */
  sessionEvents: SessionEvents
  chains: ChainRegistry
  limiter: RateLimiter
  /**
   * True when `limiter` counts in `store` (the default limiter): a poll then reads its session
   * and counts its hit in one store call. A custom limiter counts polls itself.
   */
  countPollsInStore: boolean
  /** The projects a poll with this Origin may count against (see createPollWindows). */
  pollWindows: (origin: string | undefined) => PollWindows
  now: () => number
  sessionTtlMs: number
  /** Server-wide: callbacks carry no credential that names a project. */
  callbackIpPolicy: RateLimitPolicy
  /** Server-wide: failed authentication per caller IP (no project is known yet). */
  authFailurePolicy: RateLimitPolicy
  /** The per-IP connection cap of the HTTP server (its refusals are reported by /healthz). */
  connections: ConnectionCap
  /** Session result long-polls waiting now (a metrics gauge). */
  longPolls: { open: number }
  /** The session store's outages as the routes met them (logged once each, counted). */
  storeOutages: StoreOutages
  /** Proxy addresses/CIDRs whose X-Forwarded-For is believed; empty: the socket peer is the caller. */
  trustProxy: readonly string[]
  /** Transaction status reads and the per-chain block watchers behind their long-polls. */
  transactions: TransactionService
}

/** The project's override of a default policy (the name stays, so headers stay comparable). */
export function policyFor(project: ProjectConfig, group: PolicyGroup): RateLimitPolicy {
  let byGroup = projectPolicies.get(project)
  if (!byGroup) {
    byGroup = {}
    projectPolicies.set(project, byGroup)
  }
  byGroup[group] ??= Object.freeze({
    ...DEFAULT_RATE_LIMITS[group],
    ...project.rateLimits?.[group],
  })
  return byGroup[group]
}

type PolicyGroup = 'appKey' | 'project' | 'session'

// One policy object per project and group, built on first use: every request asks, and a fresh
// object each time would also defeat the limiter's once-per-policy validation.
const projectPolicies = new WeakMap<ProjectConfig, Partial<Record<PolicyGroup, RateLimitPolicy>>>()
