/** A fresh pairing: show `uri` as a QR code or deep link; keep `symKeyP` secret. */
export interface Pairing {
  /** 32 random bytes as 64 lower-case hex digits. */
  pairingTopic: string
  /** The pairing symmetric key, exactly 32 bytes. */
  symKeyP: Uint8Array
  /** `scope:{pairingTopic}@1?relay-url=…&symKey=…&relay-protocol=scr[&expiryTimestamp=…]` */
  uri: string
  /** Unix seconds, when given to `createPairing`: the wallet refuses the URI after it. */
  expiryTimestamp?: number
}

/** What `parsePairingUri` reads out of a pairing URI. */
export interface ParsedPairingUri {
  /** 64 lower-case hex digits. */
  pairingTopic: string
  /** Always `SCOPE_PAIRING_VERSION` (1). */
  version: number
  /** The decoded `ws://` or `wss://` relay URL, exactly as it was encoded. */
  relayUrl: string
  /** Exactly 32 bytes. */
  symKeyP: Uint8Array
  /** Always `RELAY_PROTOCOL` (`scr`). */
  relayProtocol: string
  /** Unix seconds, when the URI carries `expiryTimestamp`. */
  expiryTimestamp?: number
}

/** One namespace the dApp asks for in its session proposal (no accounts yet). */
export interface CaipNamespace {
  /** CAIP-2 chain ids, e.g. `eip155:1`. */
  chains?: string[]
  /** RPC methods, e.g. `personal_sign`, `solana_signMessage`. */
  methods?: string[]
  /** Events, e.g. `accountsChanged`, `chainChanged`. */
  events?: string[]
}

/** The requested namespaces of a session proposal, keyed by namespace name (`eip155`, `solana`). */
export type CaipNamespaces = Record<string, CaipNamespace>

/** One namespace the wallet approved, with the accounts it grants. */
export interface SettledNamespace {
  /** CAIP-10 account ids, e.g. `eip155:1:0xab…`. Required. */
  accounts: string[]
  chains?: string[]
  methods?: string[]
  events?: string[]
}

/** The approved namespaces of a settled session, keyed by namespace name. */
export type SettledNamespaces = Record<string, SettledNamespace>

/** A settled relay session. `topic` and `symKeyS` are secrets: never log or persist them in clear. */
export interface Session {
  /** hex(SHA-256(symKeyS)). */
  topic: string
  /** The session symmetric key (HKDF-SHA256 over the X25519 shared secret), 32 bytes. */
  symKeyS: Uint8Array
  namespaces: SettledNamespaces
  /** The peer's X25519 public key, hex. */
  peerPublicKey: string
  /** Milliseconds since the epoch. */
  expiry?: number
}

/** The answer of `POST /relay/token`. */
export interface RelayTokenGrant {
  token: string
  /** Milliseconds since the epoch. */
  expiresAt: number
}
