/**
 * `scope-connect/react`: React hooks over a `Client` (`scope-connect/client`). `react` (18 or 19)
 * and `@xstate/react` (for `useClientSelector`) are optional peer dependencies: install them to use
 * this entry; the other entries never import React. Every hook follows the client across root
 * replacements (`resume()`) and wallet changes (`selectWallet`).
 */

export { useClientActor } from './use-client-actor'
export { useClientSelector } from './use-client-selector'
export { useClientView } from './use-client-view'
export { useConnection } from './use-connection'
