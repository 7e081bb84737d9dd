export {
  AppError,
  type AppErrorCode,
  type AppErrorOptions,
  type FieldIssue,
  isAppError,
} from './app-error'
export {
  isProviderRpcError,
  normalizeWalletError,
  ProviderRpcError,
  USER_REJECTED_CODE,
} from './provider-rpc-error'
