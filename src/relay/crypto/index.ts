export { ENVELOPE_NONCE_BYTES, ENVELOPE_TYPE, openEnvelope, sealEnvelope } from './envelope'
export {
  deriveSessionKey,
  generateKeyPair,
  isPublicKeyHex,
  SESSION_KEY_INFO,
  topicOfKey,
  type X25519KeyPair,
} from './session-key'
