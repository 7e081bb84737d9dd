// What a backend session reports the wallet answered (its universal-link callbacks, read back by
// `GET /sessions/{id}/result`), checked as every wallet answer is (issue 27): the backend checks
// the callbacks, and this keeps a broken backend, a proxy or a cache from handing the app a
// connection or a signature that is none.
import {
  checkedTransactionHash,
  EvmAddressSchema,
  EvmSignatureSchema,
  SolanaAddressSchema,
  SolanaSignatureSchema,
} from '../connectors/wallet-answers'
import { AppError } from '../errors/app-error'
import type { GenericWalletSessionClient } from './client'
import type { GenericSessionResult } from './types'

/** 64 bytes in base64 (the backend takes a Solana signature in base58 or base64). */
const base64Of64 = (value: string): boolean => /^[A-Za-z0-9+/]{86}==$/.test(value)

const bad = (what: string) =>
  new AppError('WALLET_ERROR', `The wallet's ${what}, as the backend reports it, is not valid.`)

/**
 * A session result whose wallet answers are valid: `walletAddress` an EVM address (20-byte hex,
 * lower-case or EIP-55) or a Solana key (32 bytes base58); `signature` of that address's
 * namespace (EVM: hex of whole bytes, at most 8,192; Solana: 64 bytes, base58 or base64);
 * `txSignature` a 32-byte hash (EVM) or a 64-byte base58 signature (Solana).
 * @throws `WALLET_ERROR` otherwise.
 */
export function checkedSessionResult<T extends GenericSessionResult>(result: T): T {
  const { walletAddress, signature, txSignature } = result
  let evm: boolean | null = null
  if (walletAddress !== null) {
    if (EvmAddressSchema.safeParse(walletAddress).success) evm = true
    else if (SolanaAddressSchema.safeParse(walletAddress).success) evm = false
    else throw bad('address')
  }
  if (signature !== null) {
    const asEvm = EvmSignatureSchema.safeParse(signature).success
    const asSolana =
      SolanaSignatureSchema.safeParse(signature).success || base64Of64(String(signature))
    if (evm === true ? !asEvm : evm === false ? !asSolana : !asEvm && !asSolana)
      throw bad('signature')
  }
  if (txSignature !== null) {
    const hash = checkedTransactionHash(txSignature, 'the transaction')
    if (evm !== null && hash.startsWith('0x') !== evm) throw bad('transaction hash')
  }
  return result
}

/** `watchResult` whose changed results are checked (`checkedSessionResult`). */
export function checkedWatch(
  watch: GenericWalletSessionClient['watchResult'],
): GenericWalletSessionClient['watchResult'] {
  return async (sessionId, sessionToken, options) => {
    const answer = await watch(sessionId, sessionToken, options)
    return answer.changed ? { ...answer, result: checkedSessionResult(answer.result) } : answer
  }
}
