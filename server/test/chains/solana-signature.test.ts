import { base58, base64 } from '@scure/base'
import { describe, expect, it } from 'vitest'
import { createSolanaAdapter } from '../../src/chains'
import { solanaKey } from './support/solana-keys'

const CHAIN = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
const adapter = createSolanaAdapter({ chainId: CHAIN })
// The envelope is JSON with non-ASCII allowed: the bytes signed are its UTF-8 encoding.
const message = JSON.stringify({
  session: 's-1',
  nonce: 'nönce ✓',
  walletAddress: 'x',
  timestamp: 1,
})

describe('Solana signatures (ed25519, offline)', () => {
  const wallet = solanaKey()
  const other = solanaKey()
  const signature = wallet.sign(message)

  const verify = (overrides: {
    address?: string
    publicKey?: string
    message?: string
    signature?: string
  }) =>
    adapter.verifySignature({
      chainId: CHAIN,
      address: overrides.address ?? wallet.address,
      publicKey: 'publicKey' in overrides ? overrides.publicKey : wallet.address,
      message: overrides.message ?? message,
      signature: overrides.signature ?? base58.encode(signature),
    })

  it('accepts the signature in base58 and in base64', async () => {
    expect(await verify({})).toBe(true)
    expect(await verify({ signature: base64.encode(signature) })).toBe(true)
  })

  it('rejects a signature by another key for the same address', async () => {
    expect(await verify({ signature: base58.encode(other.sign(message)) })).toBe(false)
  })

  it('rejects a publicKey that is not the connected address, even with its own valid signature', async () => {
    const signature = base58.encode(other.sign(message))
    expect(await verify({ publicKey: other.address, signature })).toBe(false)
  })

  it('requires the publicKey', async () => {
    expect(await verify({ publicKey: undefined })).toBe(false)
  })

  it('rejects a tampered message', async () => {
    expect(await verify({ message: message.replace('s-1', 's-2') })).toBe(false)
  })

  it.each([
    ['empty', ''],
    ['not base58 nor base64', '!!!'],
    ['63 bytes', base58.encode(signature.slice(0, 63))],
    ['65 bytes in base64', base64.encode(new Uint8Array([...signature, 0]))],
    ['hex', `0x${Buffer.from(signature).toString('hex')}`],
  ])('resolves false for a %s signature', async (_, bad) => {
    await expect(verify({ signature: bad })).resolves.toBe(false)
  })

  it('resolves false when the address is not a 32-byte base58 key', async () => {
    await expect(verify({ address: 'abc', publicKey: 'abc' })).resolves.toBe(false)
  })

  it('validates addresses as base58 of exactly 32 bytes', () => {
    expect(adapter.isValidAddress(wallet.address)).toBe(true)
    expect(adapter.isValidAddress('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA')).toBe(true)
    expect(adapter.isValidAddress(base58.encode(new Uint8Array(31).fill(7)))).toBe(false)
    expect(adapter.isValidAddress(base58.encode(new Uint8Array(33).fill(7)))).toBe(false)
    expect(adapter.isValidAddress('0OIl' + wallet.address.slice(4))).toBe(false)
    expect(adapter.isValidAddress('')).toBe(false)
  })
})
