/**
 * The secrets of one pairing, kept outside the machine (context, events and snapshots never hold
 * them): the pairing topic and `symKeyP` (in the URI), the dApp's X25519 private key until the
 * keys are settled, then the session topic and `symKeyS`. Keyed by the machine's `pairingId`.
 */
export interface PairingSecrets {
  pairingTopic: string
  symKeyP: Uint8Array
  /** Dropped once the session key is derived. */
  privateKey: Uint8Array | null
  publicKey: string
  /** `scope:…` URI shown as QR code or deep link (holds `symKeyP`). */
  uri: string
  sessionTopic: string | null
  symKeyS: Uint8Array | null
}

/** Where a pairing's keys live outside the machine's context, by pairing id. */
export interface PairingVault {
  get(pairingId: string): PairingSecrets | undefined
  set(pairingId: string, secrets: PairingSecrets): void
  delete(pairingId: string): void
}

/** An in-memory vault (one per flow by default). */
export function createMemoryPairingVault(): PairingVault {
  const records = new Map<string, PairingSecrets>()
  return {
    get: (id) => records.get(id),
    set: (id, secrets) => void records.set(id, secrets),
    delete: (id) => void records.delete(id),
  }
}
