export {
  AppError,
  type AppErrorCode,
  type AppErrorOptions,
  type FieldIssue,
  isAppError,
  type MayBeAppError,
} from './app-error'
export {
  isProviderRpcError,
  normalizeWalletError,
  ProviderRpcError,
  USER_REJECTED_CODE,
} from './provider-rpc-error'
