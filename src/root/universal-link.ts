export {
  buildUniversalLinkUrl,
  createBrowserUniversalLinkStore,
  createMemoryUniversalLinkStore,
  DEFAULT_UNIVERSAL_LINK_STORAGE_KEY,
  parsePersistedState,
  SOLANA_SIGN_TRANSACTION_METHOD,
  UNIVERSAL_LINK_PARAMS,
  UNIVERSAL_LINK_VERSION,
  type UniversalLinkInputs,
  type UniversalLinkMethod,
  type UniversalLinkPersistedState,
  type UniversalLinkStore,
} from '../universal-link'
