export { buildSignedMessageEnvelope } from '../wire/envelope'
