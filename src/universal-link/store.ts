import type { RecordStore } from '../storage/record-store'
import type { UniversalLinkPersistedState } from './persisted-state'

/** Where the universal-link flow keeps its state across the page reload that follows the wallet. */
export type UniversalLinkStore = RecordStore<UniversalLinkPersistedState>
