export {
  AppError,
  type AppErrorCode,
  type FieldIssue,
  isAppError,
  isProviderRpcError,
  normalizeWalletError,
  ProviderRpcError,
  USER_REJECTED_CODE,
} from '../errors'
