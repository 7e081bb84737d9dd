import type {
  PairingPersistedState,
  PairingStore,
} from '../../../machines/pairing/pairing.persistence'
import type { UniversalLinkPersistedState } from '../../universal-link/persisted-state'
import type { UniversalLinkStore } from '../../universal-link/store'

/** Serialises with bigints shown (so a check can report them rather than throw on them). */
export function describeJsonUnsafe(value: unknown): string | null {
  try {
    JSON.stringify(value)
    return null
  } catch (error) {
    return String(error)
  }
}

/**
 * A TEST DOUBLE of `localStorage` behind a store: it keeps the JSON text, as a page would, and
 * records every value handed to `save` that is not JSON-safe (a bigint, a cycle) — which a real
 * `localStorage` store would lose, so the flow would not survive the reload.
 */
export interface RecordingStore<T> {
  save(state: T): void
  load(): T | null
  clear(): void
  readonly text: string | null
  readonly unsafeSaves: string[]
  readonly saves: number
}

function recordingStore<T>(): RecordingStore<T> {
  let text: string | null = null
  let saves = 0
  const unsafeSaves: string[] = []
  return {
    save(state) {
      saves++
      const unsafe = describeJsonUnsafe(state)
      if (unsafe) {
        unsafeSaves.push(unsafe)
        text = null
        return
      }
      text = JSON.stringify(state)
    },
    load: () => (text === null ? null : (JSON.parse(text) as T)),
    clear() {
      text = null
    },
    get text() {
      return text
    },
    get saves() {
      return saves
    },
    unsafeSaves,
  }
}

export const createRecordingLinkStore = (): RecordingStore<UniversalLinkPersistedState> &
  UniversalLinkStore => recordingStore<UniversalLinkPersistedState>()

export const createRecordingPairingStore = (): RecordingStore<PairingPersistedState> &
  PairingStore => recordingStore<PairingPersistedState>()
