/**
 * `scope-connect/react`: React hooks over a `Client` (`scope-connect/client`). `react` (18 or 19)
 * and `@xstate/react` (for `useClientSelector`) are optional peer dependencies: install them to use
 * this entry; the other entries never import React. Every hook follows the client across root
 * replacements (`resume()`) and wallet changes (`selectWallet`).
 */

'use client'

export { ClientProvider, type ClientProviderProps, useClient } from './client-context'
export type { MutationState, MutationStatus } from './mutation'
export type { QueryState, QueryStatus } from './query-cache'
export { type UseBalanceParameters, type UseBalanceResult, useBalance } from './use-balance'
export { useClientActor } from './use-client-actor'
export { useClientSelector } from './use-client-selector'
export { useClientView } from './use-client-view'
export { type ConnectVariables, type UseConnectResult, useConnect } from './use-connect'
export { useConnection } from './use-connection'
export { type UseSendTransactionResult, useSendTransaction } from './use-send-transaction'
export { type UseSignInResult, useSignIn } from './use-sign-in'
export {
  type SignMessageVariables,
  type UseSignMessageResult,
  useSignMessage,
} from './use-sign-message'
export {
  type SwitchChainVariables,
  type UseSwitchChainResult,
  useSwitchChain,
} from './use-switch-chain'
export {
  type UseWaitForTransactionResult,
  useWaitForTransaction,
} from './use-wait-for-transaction'
