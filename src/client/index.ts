/**
 * `scope-connect/client`: the `Client` facade. In its own entry because it loads connectors by
 * dynamic import: a bundler that meets an `import()` anywhere in an entry's graph (esbuild with code
 * splitting) stops dropping unused modules of that entry, so the pure root entry stays free of it.
 */

export type { ClientActor } from '../../machines/client/client.facade'
export type { ClientTimeouts } from '../../machines/client/client.types'
export { DEFAULT_CLIENT_TIMEOUTS } from '../../machines/client/client.types'
export type { ClientSnapshot, ClientStatus, ClientView } from '../../machines/client/client.view'
export { toClientView } from '../../machines/client/client.view'
export {
  SIGN_MESSAGE_MAX_LENGTH,
  type SignableMessage,
} from '../../machines/sign/sign.requests'
export type { TransactionTimeouts } from '../../machines/transaction/transaction.types'
export { DEFAULT_TRANSACTION_TIMEOUTS } from '../../machines/transaction/transaction.types'
export type { TransactionStage, TransactionView } from '../../machines/transaction/transaction.view'
export type { SignInParameters } from '../siwe/parameters'
export type { SignInRecord } from '../wire/schemas/sign-in'
export { Client, type ClientOptions, type ResumeResult } from './client'
