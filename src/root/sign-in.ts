export { buildSignInMessage, parseSignInMessage } from '../wire/sign-in-message'
