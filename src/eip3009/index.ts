export { decodeAbiString, NAME_SELECTOR, VERSION_SELECTOR } from './abi'
export {
  authorizationOf,
  type BuildEip3009AuthorizationParams,
  buildEip3009Authorization,
  DEFAULT_AUTHORIZATION_VALIDITY_SECONDS,
  EIP3009_TYPES,
} from './build-authorization'
export { type ContractReader, readContract } from './contract-reader'
export {
  type RelaySessionRequester,
  signTypedDataOverRelay,
  typedDataJson,
} from './sign-over-relay'
export {
  type SignedTransferAuthorization,
  type SignTransferAuthorizationParams,
  signTransferAuthorization,
} from './sign-transfer-authorization'
export { splitSignature } from './split-signature'
export type { Eip3009Authorization, Eip3009TypedData, SplitSignature } from './types'
