export {
  createBrowserUniversalLinkStore,
  DEFAULT_UNIVERSAL_LINK_STORAGE_KEY,
} from './browser-store'
export { buildUniversalLinkUrl, type UniversalLinkInputs } from './build-universal-link-url'
export { createMemoryUniversalLinkStore } from './memory-store'
export {
  SOLANA_SIGN_TRANSACTION_METHOD,
  UNIVERSAL_LINK_METHODS,
  UNIVERSAL_LINK_PARAMS,
  UNIVERSAL_LINK_VERSION,
  type UniversalLinkMethod,
  type UniversalLinkParamName,
} from './params'
export {
  parsePersistedState,
  UNIVERSAL_LINK_STATE_FORMAT,
  UNIVERSAL_LINK_STATE_FORMAT_VERSION,
  type UniversalLinkPersistedState,
} from './persisted-state'
export type { UniversalLinkStore } from './store'
