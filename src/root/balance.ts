export {
  type BalanceReader,
  type BalanceReaderOptions,
  createBalanceReader,
  type TokenBalance,
  type TokenBalanceQuery,
  type TokenBalanceResult,
} from '../balance'
