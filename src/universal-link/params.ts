/**
 * The `sc*` query parameters a wallet provider must interpret on its universal link, by logical
 * name. A wallet reads `scVersion` first and refuses versions it does not know.
 */
export const UNIVERSAL_LINK_PARAMS = /* @__PURE__ */ Object.freeze({
  /** Format version of the parameter set, `1`. */
  version: 'scVersion',
  /** The backend session id the wallet reports its result for. */
  sessionId: 'scSessionId',
  /** The server-issued nonce the wallet signs inside the envelope. */
  nonce: 'scNonce',
  /** CAIP-2 chain id. */
  chain: 'scChain',
  /** Backend base URL; the wallet posts to `{scCallback}/api/v1/connect/callback/*`. */
  callback: 'scCallback',
  /** `connect` | `signMessage` | `signTransaction`. */
  method: 'scMethod',
  /** base64url payload, for `signTransaction` (the serialized transaction). */
  payload: 'scPayload',
  /** Where the wallet sends the user back when it is done. */
  returnUrl: 'scReturnUrl',
  /** The dApp's display name. */
  dappName: 'scDappName',
  /** The dApp's public client identifier (not a secret). */
  appKey: 'scAppKey',
} as const)

export type UniversalLinkParamName =
  (typeof UNIVERSAL_LINK_PARAMS)[keyof typeof UNIVERSAL_LINK_PARAMS]

/** The value of `scVersion`. */
export const UNIVERSAL_LINK_VERSION = 1

/** The RPC method name wallets use to sign a Solana transaction. */
export const SOLANA_SIGN_TRANSACTION_METHOD = 'solana_signTransaction'

/** What the wallet is asked to do (`scMethod`). */
export type UniversalLinkMethod = 'connect' | 'signMessage' | 'signTransaction'

/** Every `UniversalLinkMethod`, in flow order. */
export const UNIVERSAL_LINK_METHODS: readonly UniversalLinkMethod[] = /* @__PURE__ */ Object.freeze(
  ['connect', 'signMessage', 'signTransaction'],
)
