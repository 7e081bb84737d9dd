/**
 * `scope-connect/wagmi`: a wagmi connector over a scope-connect `Client`, `scopeConnect({ client })`.
 * wagmi's actions and hooks follow the Client's connection, and the Client follows wagmi's connect
 * and disconnect. `@wagmi/core` (and `viem`, which it needs) are optional peer dependencies, loaded
 * on the connector's first call; no other entry imports them.
 */

export {
  SCOPE_CONNECT_CONNECTOR_ID,
  type ScopeConnectParameters,
  scopeConnect,
} from './connector'
export type { ScopeConnectProvider, ScopeConnectRequest } from './provider'
