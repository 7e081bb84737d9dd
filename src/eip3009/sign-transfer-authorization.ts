import { requireObject } from '../errors/arguments'
import {
  authorizationOf,
  type BuildEip3009AuthorizationParams,
  buildEip3009Authorization,
} from './build-authorization'
import {
  type RelaySessionRequester,
  requireSession,
  sessionEvmAccount,
  signTypedDataOverRelay,
} from './sign-over-relay'
import { splitSignature } from './split-signature'
import type { Eip3009Authorization, Eip3009TypedData, SplitSignature } from './types'

/** Parameters of `signTransferAuthorization`: those of `buildEip3009Authorization`, `from` optional (default the session's first account on the chain). */
export type SignTransferAuthorizationParams = Omit<BuildEip3009AuthorizationParams, 'from'> & {
  /** Default: the session's first account on `chainId`. */
  from?: string
}

/** What `signTransferAuthorization` returns: the authorization, the 65-byte signature and its `v`, `r`, `s` for `transferWithAuthorization`. */
export interface SignedTransferAuthorization extends SplitSignature {
  /** 65 bytes `r ‖ s ‖ v`, 0x-hex. */
  signature: string
  /** The arguments of `transferWithAuthorization(from, to, value, validAfter, validBefore, nonce, v, r, s)`. */
  authorization: Eip3009Authorization
  typedData: Eip3009TypedData
}

/**
 * Builds an EIP-3009 `TransferWithAuthorization` for `token` (domain read on chain), has the wallet
 * sign it over the relay session (`eth_signTypedData_v4`) and returns the signature (packed and as
 * v, r, s) with its authorization, ready for `transferWithAuthorization` — which anyone may submit.
 *
 * @throws AppError as `buildEip3009Authorization` and `signTypedDataOverRelay` do;
 * `INVALID_CONFIG` when `session` has no `request()` or `params` is not an object.
 */
export async function signTransferAuthorization(
  session: RelaySessionRequester,
  params: SignTransferAuthorizationParams,
): Promise<SignedTransferAuthorization> {
  requireSession(session)
  requireObject(params, 'params')
  const given: unknown = params.chainId
  // A chain id of another type is refused by buildEip3009Authorization, naming the field.
  const chain =
    typeof given === 'number' ? `eip155:${given}` : typeof given === 'string' ? given : undefined
  const from = params.from ?? sessionEvmAccount(session, chain)
  const typedData = await buildEip3009Authorization({ ...params, from })
  const signature = await signTypedDataOverRelay(session, typedData, { address: from })
  return {
    signature,
    ...splitSignature(signature),
    authorization: authorizationOf(typedData),
    typedData,
  }
}
