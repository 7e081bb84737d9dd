export { buildPairingUri } from './build-pairing-uri'
export {
  MAX_PAIRING_URI_LENGTH,
  PAIRING_URI_SCHEME,
  RELAY_PROTOCOL,
  RELAY_TOKEN_EXPIRY_MARGIN_MS,
  SCOPE_PAIRING_VERSION,
} from './constants'
export { createPairing } from './create-pairing'
export { parsePairingUri } from './parse-pairing-uri'
export { relayTokenExpired } from './relay-token'
export type {
  CaipNamespace,
  CaipNamespaces,
  Pairing,
  ParsedPairingUri,
  RelayTokenGrant,
  Session,
  SettledNamespace,
  SettledNamespaces,
} from './types'
