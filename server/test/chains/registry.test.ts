import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { createChainRegistry } from '../../src/chains'
import { solanaKey } from './support/solana-keys'

const SOLANA = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'

describe('createChainRegistry', () => {
  it('builds one adapter per chain by namespace and returns undefined for others', () => {
    const registry = createChainRegistry([
      { chainId: 'eip155:1' },
      { chainId: 'eip155:8453' },
      { chainId: SOLANA },
    ])
    expect(registry.get('eip155:1')?.namespace).toBe('eip155')
    expect(registry.get('eip155:8453')?.namespace).toBe('eip155')
    expect(registry.get(SOLANA)?.namespace).toBe('solana')
    expect(registry.get('eip155:10')).toBeUndefined()
  })

  it.each([
    ['an unknown namespace', 'cosmos:cosmoshub-4', /namespace must be eip155 or solana/],
    ['a non-CAIP-2 id', 'ethereum', /unsupported chain/],
    ['a non-numeric eip155 reference', 'eip155:mainnet', /eip155/],
    ['a non-base58 solana reference', 'solana:0OIl', /solana/],
  ])('throws at start for %s', (_, chainId, message) => {
    expect(() => createChainRegistry([{ chainId }])).toThrow(message)
  })

  it('accepts a chain listed twice but not with two different rpcUrls', () => {
    const same = [
      { chainId: 'eip155:1', rpcUrl: 'http://127.0.0.1:1' },
      { chainId: 'eip155:1' },
      { chainId: 'eip155:1', rpcUrl: 'http://127.0.0.1:1' },
    ]
    expect(createChainRegistry(same).get('eip155:1')).toBeDefined()
    expect(() =>
      createChainRegistry([
        { chainId: 'eip155:1', rpcUrl: 'http://127.0.0.1:1' },
        { chainId: 'eip155:1', rpcUrl: 'http://127.0.0.1:2' },
      ]),
    ).toThrow(/two different rpcUrls/)
  })

  it('verifies signatures and addresses without any RPC configured', async () => {
    const registry = createChainRegistry([{ chainId: 'eip155:1' }, { chainId: SOLANA }])
    const evmSigner = privateKeyToAccount(generatePrivateKey())
    const message = 'hello'
    const evm = registry.get('eip155:1')!
    expect(evm.isValidAddress(evmSigner.address)).toBe(true)
    expect(
      await evm.verifySignature({
        chainId: 'eip155:1',
        address: evmSigner.address,
        message,
        signature: await evmSigner.signMessage({ message }),
      }),
    ).toBe(true)

    const sol = registry.get(SOLANA)!
    const wallet = solanaKey()
    expect(sol.isValidAddress(wallet.address)).toBe(true)
    expect(sol.isValidAddress(evmSigner.address)).toBe(false)
    expect(
      await sol.verifySignature({
        chainId: SOLANA,
        address: wallet.address,
        publicKey: wallet.address,
        message,
        signature: Buffer.from(wallet.sign(message)).toString('base64'),
      }),
    ).toBe(true)
  })
})
