/**
 * Where the symmetric keys of topics live: outside machine context, events and snapshots (the
 * inspector never sees them). Keyed by topic; the relay peer reads it for every message.
 */
export interface RelayKeyring {
  get(topic: string): Uint8Array | undefined
  set(topic: string, symKey: Uint8Array): void
  delete(topic: string): void
}

/** An in-memory keyring. */
export function createMemoryKeyring(): RelayKeyring {
  const keys = new Map<string, Uint8Array>()
  return {
    get: (topic) => keys.get(topic),
    set: (topic, symKey) => void keys.set(topic, symKey),
    delete: (topic) => void keys.delete(topic),
  }
}
