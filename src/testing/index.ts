/**
 * `scope-connect/testing`: tests of a dApp's own UI generated from the library's statecharts.
 * Test wallets with real keys, test doubles of the backend and the relay, paths generated from the
 * real root machine (`getClientPaths`), their replay against the app's UI (`runClientPath`) with
 * adapters for Testing Library and Playwright, and a coverage line. Never imported by the other
 * entries: it is for tests only. See docs/testing.md.
 */

export {
  clickButton,
  createDomDriver,
  type DomDriverOptions,
  type RenderedUi,
} from './adapters/dom'
export {
  type ExposeClientPathsOptions,
  exposeClientPaths,
  openClientPaths,
  type PagePathsHandle,
  type PlaywrightPage,
  type RemoteAction,
} from './adapters/playwright'
export {
  BACKEND_FAULTS,
  type BackendFault,
  JUNK_WALLET_ANSWER,
  WALLET_ANSWERS,
  type WalletAnswer,
} from './doubles/answers'
export {
  type BackendDouble,
  createBackendDouble,
  TEST_APP_KEY,
  TEST_BALANCE_RAW,
  TEST_BASE_URL,
} from './doubles/backend-double'
export { createScriptedEvmWallet, type ScriptedEvmWallet } from './doubles/evm-wallet'
export { TEST_EVM_KEYS, TEST_SOLANA_KEYS } from './doubles/keys'
export { TEST_PARTNER_WALLET, TEST_PARTNER_WALLET_ID } from './doubles/partner-wallet'
export type { RecordedRequest, WalletBehaviour, WalletHandler } from './doubles/prompts'
export { createRelayDouble, type RelayDouble } from './doubles/relay-double'
export { createScriptedSolanaWallet, type ScriptedSolanaWallet } from './doubles/solana-wallet'
export {
  createTestWallet,
  type TestWallet,
  type TestWalletOptions,
  type TestWalletRelay,
} from './doubles/test-wallet'
export {
  CLIENT_FLOWS,
  type ClientExploration,
  type ClientPathOptions,
  type ClientStatusGraph,
  exploreClient,
  getClientPaths,
} from './paths/generate'
export {
  type ChildAnswer,
  type RuleEvent,
  type RuleOutcome,
  STEP_RULES,
  type StepRule,
} from './paths/steps'
export type {
  ClientFlow,
  ClientPath,
  ClientPathStep,
  ClientStep,
  FaultStep,
  ReloadStep,
  TimeStep,
  UserAction,
  UserActionType,
  WalletStep,
} from './paths/types'
export { type ClientPathWorld, defaultWorld, PATH_TIMEOUTS } from './paths/world'
export { type ClientCoverage, createClientCoverage, UNCOUNTED_STATUSES } from './run/coverage'
export { preloadClientPaths } from './run/preload'
export {
  type ClientPathDriver,
  ClientPathError,
  type ClientPathRun,
  type RunClientPathOptions,
  runClientPath,
} from './run/run-path'
export { sameClientView, viewDifferences } from './run/same-view'
export type { ShownReaders } from './run/shown'
