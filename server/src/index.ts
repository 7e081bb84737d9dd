/**
 * `@scope-connect/server`: the scope-connect backend (config, sessions, balances, transactions and
 * the relay) to embed in a Node program. `createServer(options)` starts what the
 * `scope-connect-server` command starts; `@scope-connect/server/testing` starts one for tests.
 * See docs/operations.md.
 */

export { loadProjectsFile, ProjectsConfigError, parseProjectsConfig } from './config/projects'
export type { ProjectsConfig } from './config/projects-schema'
export {
  type CreateServerOptions,
  createServer,
  type ScopeConnectServer,
} from './create-server'
export { parseRelaySigningKeys } from './relay/token'
export type { RelayOptions } from './routes/relay'
export type { RedisTarget } from './store/redis-connection'
