import { type Address, encodeFunctionData, type Hex, serializeErc6492Signature } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEvmAdapter } from '../../src/chains'
import { closedPortUrl } from './support/black-hole'
import { contracts } from './support/contracts'
import { startEvmFixture } from './support/evm-fixture'

const CHAIN = 'eip155:31337'
const message = JSON.stringify({
  session: 'a1b2c3',
  nonce: 'n-42',
  walletAddress: '0x0',
  timestamp: 1_750_000_000_000,
})

describe('EVM signatures by EIP-191 recovery (no RPC)', () => {
  const signer = privateKeyToAccount(generatePrivateKey())
  const other = privateKeyToAccount(generatePrivateKey())
  const adapter = createEvmAdapter({ chainId: CHAIN })
  let signature: Hex

  beforeAll(async () => {
    signature = await signer.signMessage({ message })
  })

  const verify = (check: { address?: string; message?: string; signature?: string }) =>
    adapter.verifySignature({
      chainId: CHAIN,
      address: check.address ?? signer.address,
      message: check.message ?? message,
      signature: check.signature ?? signature,
    })

  it('accepts the signer, with the address in any valid casing', async () => {
    expect(await verify({})).toBe(true)
    expect(await verify({ address: signer.address.toLowerCase() })).toBe(true)
  })

  it('rejects another signer and a tampered message', async () => {
    expect(await verify({ signature: await other.signMessage({ message }) })).toBe(false)
    expect(await verify({ address: other.address })).toBe(false)
    expect(await verify({ message: message.replace('n-42', 'n-43') })).toBe(false)
  })

  it.each([
    ['empty', ''],
    ['bare 0x', '0x'],
    ['not hex', '0xzz'],
    ['without 0x', 'deadbeef'],
    ['truncated', 'TRUNCATE'],
    ['all zero', `0x${'00'.repeat(65)}`],
  ])('resolves false, never throws, for a %s signature', async (_, bad) => {
    const value = bad === 'TRUNCATE' ? signature.slice(0, 100) : bad
    await expect(verify({ signature: value })).resolves.toBe(false)
  })

  it('resolves false for a malformed address', async () => {
    await expect(verify({ address: 'not-an-address' })).resolves.toBe(false)
    await expect(verify({ address: '' })).resolves.toBe(false)
  })

  it('checks EOAs locally even when the configured RPC is down', async () => {
    const offline = createEvmAdapter({ chainId: CHAIN, rpcUrl: await closedPortUrl() })
    const check = { chainId: CHAIN, address: signer.address, message, signature }
    expect(await offline.verifySignature(check)).toBe(true)
    await expect(offline.verifySignature({ ...check, message: 'other' })).resolves.toBe(false)
  })
})

describe('EVM contract-wallet signatures (ERC-1271, ERC-6492) against a real anvil', () => {
  let fx: Awaited<ReturnType<typeof startEvmFixture>>
  const owner = privateKeyToAccount(generatePrivateKey())
  const stranger = privateKeyToAccount(generatePrivateKey())
  let wallet: Address

  beforeAll(async () => {
    fx = await startEvmFixture()
    wallet = await fx.deploy('OwnedWallet', [owner.address])
  })
  afterAll(() => fx?.anvil.stop())

  const check = (address: Address, signature: Hex, text = message) => ({
    chainId: fx.chainId,
    address,
    message: text,
    signature,
  })

  it('accepts the owner signature for a deployed ERC-1271 wallet only through the RPC', async () => {
    const signature = await owner.signMessage({ message })
    const withRpc = createEvmAdapter({ chainId: fx.chainId, rpcUrl: fx.anvil.rpcUrl })
    const eoaOnly = createEvmAdapter({ chainId: fx.chainId })
    expect(await withRpc.verifySignature(check(wallet, signature))).toBe(true)
    expect(await eoaOnly.verifySignature(check(wallet, signature))).toBe(false)
  })

  it('rejects a stranger and a tampered message for the ERC-1271 wallet', async () => {
    const withRpc = createEvmAdapter({ chainId: fx.chainId, rpcUrl: fx.anvil.rpcUrl })
    const foreign = await stranger.signMessage({ message })
    const signature = await owner.signMessage({ message })
    expect(await withRpc.verifySignature(check(wallet, foreign))).toBe(false)
    expect(await withRpc.verifySignature(check(wallet, signature, `${message} `))).toBe(false)
  })

  it('accepts an ERC-6492 signature of a wallet not deployed yet, without deploying it', async () => {
    const factory = await fx.deploy('WalletFactory', [])
    const salt = `0x${'11'.repeat(32)}` as Hex
    const { abi } = contracts().WalletFactory
    const { result: predicted } = await fx.publicClient.simulateContract({
      address: factory,
      abi,
      functionName: 'deploy',
      args: [owner.address, salt],
    })
    const counterfactual = predicted as Address
    const signature = serializeErc6492Signature({
      address: factory,
      data: encodeFunctionData({ abi, functionName: 'deploy', args: [owner.address, salt] }),
      signature: await owner.signMessage({ message }),
    })
    const withRpc = createEvmAdapter({ chainId: fx.chainId, rpcUrl: fx.anvil.rpcUrl })
    expect(await withRpc.verifySignature(check(counterfactual, signature))).toBe(true)
    expect(await withRpc.verifySignature(check(counterfactual, signature, 'x'))).toBe(false)
    expect(
      await createEvmAdapter({ chainId: fx.chainId }).verifySignature(
        check(counterfactual, signature),
      ),
    ).toBe(false)
    expect(await fx.publicClient.getCode({ address: counterfactual })).toBeUndefined()
  })
})
