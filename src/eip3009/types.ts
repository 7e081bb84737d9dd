/** The EIP-712 typed data of an EIP-3009 `TransferWithAuthorization`, JSON-safe. */
export interface Eip3009TypedData {
  types: {
    EIP712Domain: Array<{ name: string; type: string }>
    TransferWithAuthorization: Array<{ name: string; type: string }>
  }
  primaryType: 'TransferWithAuthorization'
  domain: { name: string; version: string; chainId: number; verifyingContract: string }
  /** uint256 values as decimal strings (JSON has no bigint); the nonce as 0x + 64 hex. */
  message: {
    from: string
    to: string
    value: string
    validAfter: string
    validBefore: string
    nonce: string
  }
}

/** The authorization as `transferWithAuthorization` takes it. */
export interface Eip3009Authorization {
  from: string
  to: string
  value: bigint
  validAfter: bigint
  validBefore: bigint
  /** 32 random bytes, 0x-hex. */
  nonce: string
}

/** A signature ready for `transferWithAuthorization(…, v, r, s)` (and the packed 65 bytes). */
export interface SplitSignature {
  v: number
  r: string
  s: string
}
