import { type Hex, isAddress, isHex, type PublicClient, verifyMessage } from 'viem'
import type { SignatureCheck } from './types'

/**
 * EIP-191 personal_sign check. Without a client only EOAs can pass (local recovery); with one,
 * viem's public action also accepts ERC-1271 contract wallets and ERC-6492 counterfactual ones.
 * Any failure, including an unreachable RPC, resolves false so a caller never sees a throw.
 */
export async function verifyEvmSignature(
  check: SignatureCheck,
  client?: PublicClient,
): Promise<boolean> {
  const { address, message, signature } = check
  try {
    if (typeof message !== 'string' || typeof signature !== 'string') return false
    if (!isAddress(address) || !isHex(signature, { strict: true }) || signature.length <= 2) {
      return false
    }
    if (!client) return await verifyMessage({ address, message, signature: signature as Hex })
    // mode 'eoa' recovers locally first, so plain wallets cost no RPC round trip.
    return await client.verifyMessage({
      address,
      message,
      signature: signature as Hex,
      mode: 'eoa',
    })
  } catch {
    return false
  }
}
