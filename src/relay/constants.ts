/** The relay protocol name carried in pairing URIs. Not compatible with WalletConnect's `irn`. */
export const RELAY_PROTOCOL = 'scr'

/** The pairing URI version, the number after `@` in `scope:{topic}@1?…`. */
export const SCOPE_PAIRING_VERSION = 1

/** The scheme of pairing URIs (`scope:`). */
export const PAIRING_URI_SCHEME = 'scope'

/** A relay token counts as expired this many milliseconds before its `expiresAt`. */
export const RELAY_TOKEN_EXPIRY_MARGIN_MS = 5000

/** Longest pairing URI `parsePairingUri` reads (a QR code holds at most 4296 characters). */
export const MAX_PAIRING_URI_LENGTH = 4096
