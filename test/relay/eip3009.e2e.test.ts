import { createPublicClient, createWalletClient, http, type PublicClient, parseUnits } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PairingHandle } from '../../machines/pairing/pairing.facade'
import { startTestServer, type TestServer } from '../../server/test/support/server'
import {
  buildEip3009Authorization,
  signTransferAuthorization,
  signTypedDataOverRelay,
  splitSignature,
} from '../../src/eip3009'
import { type RunningAnvil, startAnvil } from '../support/anvil'
import { compileSolidity } from '../support/compile-solidity'
import { dappPairing, walletSimulator } from './support/pairing-setup'

// anvil's dev accounts 0 (deployer), 2 (the relayer that submits), 3 (the payee).
const DEPLOYER = privateKeyToAccount(
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
)
const RELAYER = privateKeyToAccount(
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
)
const PAYEE = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'

let server: TestServer
let anvil: RunningAnvil
let publicClient: PublicClient
let dapp: PairingHandle
let wallet: ReturnType<typeof walletSimulator>
let token: `0x${string}`
let abi: ReturnType<typeof compileSolidity>['abi']

beforeAll(async () => {
  ;[server, anvil] = await Promise.all([startTestServer(), startAnvil()])
  const transport = http(anvil.rpcUrl)
  publicClient = createPublicClient({ chain: foundry, transport })
  const compiled = compileSolidity(
    new URL('./fixtures/Eip3009Token.sol', import.meta.url),
    'Eip3009Token',
  )
  abi = compiled.abi
  wallet = walletSimulator(server)
  const deployer = createWalletClient({ account: DEPLOYER, chain: foundry, transport })
  const hash = await deployer.deployContract({
    abi,
    bytecode: compiled.bytecode,
    args: ['Scope USD', wallet.evm.address, parseUnits('1000', 6)],
  })
  const receipt = await publicClient.waitForTransactionReceipt({ hash })
  token = receipt.contractAddress as `0x${string}`
  dapp = dappPairing(server)
  await wallet.pairAndApprove(dapp.uri as string)
  await dapp.approval
}, 120_000)

afterAll(async () => {
  dapp?.stop()
  wallet?.close()
  await Promise.all([server?.close(), anvil?.stop()])
})

/** Reads on chain through viem's public client, as `{ call }`. */
const reader = { call: (args: { to: string; data: string }) => publicClient.call(args as never) }

async function submit(signed: Awaited<ReturnType<typeof signTransferAuthorization>>) {
  const relayer = createWalletClient({
    account: RELAYER,
    chain: foundry,
    transport: http(anvil.rpcUrl),
  })
  const { from, to, value, validAfter, validBefore, nonce } = signed.authorization
  const args = [from, to, value, validAfter, validBefore, nonce, signed.v, signed.r, signed.s]
  // Simulated first, so a refusal surfaces with its revert reason.
  const { request } = await publicClient.simulateContract({
    account: RELAYER,
    address: token,
    abi,
    functionName: 'transferWithAuthorization',
    args,
  })
  const hash = await relayer.writeContract(request as never)
  return publicClient.waitForTransactionReceipt({ hash })
}

const balanceOf = (account: string) =>
  publicClient.readContract({
    address: token,
    abi,
    functionName: 'balanceOf',
    args: [account],
  }) as Promise<bigint>

describe('EIP-3009 over the relay, on anvil', () => {
  it('reads the domain on chain and builds TransferWithAuthorization typed data as JSON', async () => {
    const typedData = await buildEip3009Authorization({
      token,
      chainId: 'eip155:31337',
      from: wallet.evm.address,
      to: PAYEE,
      value: 5n,
      reader,
    })
    expect(typedData.domain).toEqual({
      name: 'Scope USD',
      version: '2',
      chainId: 31337,
      verifyingContract: token,
    })
    expect(typedData.primaryType).toBe('TransferWithAuthorization')
    expect(typedData.message.value).toBe('5')
    expect(typedData.message.nonce).toMatch(/^0x[0-9a-f]{64}$/)
    expect(JSON.parse(JSON.stringify(typedData))).toEqual(typedData)
    // The domain separator we sign under is the token's own.
    const separator = await publicClient.readContract({
      address: token,
      abi,
      functionName: 'DOMAIN_SEPARATOR',
    })
    const { hashDomain } = await import('viem')
    expect(
      hashDomain({
        domain: typedData.domain as never,
        types: { EIP712Domain: typedData.types.EIP712Domain } as never,
      }),
    ).toBe(separator)
  })

  it('the wallet signs over the relay; a third account submits; balances move; the nonce is spent', async () => {
    const value = parseUnits('12.5', 6)
    const before = await Promise.all([balanceOf(wallet.evm.address), balanceOf(PAYEE)])
    const signed = await signTransferAuthorization(dapp, {
      token,
      chainId: 31337,
      to: PAYEE,
      value,
      reader,
    })
    expect(signed.authorization.from).toBe(wallet.evm.address)
    expect(signed.signature).toMatch(/^0x[0-9a-fA-F]{130}$/)
    expect(splitSignature(signed.signature)).toEqual({ v: signed.v, r: signed.r, s: signed.s })
    expect(wallet.requests.at(-1)?.method).toBe('eth_signTypedData_v4')

    const receipt = await submit(signed)
    expect(receipt.status).toBe('success')
    expect(receipt.from.toLowerCase()).toBe(RELAYER.address.toLowerCase())
    expect(await balanceOf(wallet.evm.address)).toBe((before[0] as bigint) - value)
    expect(await balanceOf(PAYEE)).toBe((before[1] as bigint) + value)
    expect(
      await publicClient.readContract({
        address: token,
        abi,
        functionName: 'authorizationState',
        args: [wallet.evm.address, signed.authorization.nonce],
      }),
    ).toBe(true)

    // The same authorization again: refused on chain.
    await expect(submit(signed)).rejects.toThrow(/authorization is used/)
  })

  it('an authorization whose validBefore has passed is refused on chain', async () => {
    const block = await publicClient.getBlock()
    const signed = await signTransferAuthorization(dapp, {
      token,
      chainId: 31337,
      to: PAYEE,
      value: 1n,
      validBefore: block.timestamp - 1n,
      reader,
    })
    await expect(submit(signed)).rejects.toThrow(/authorization is expired/)
  })

  it('signTypedDataOverRelay sends eth_signTypedData_v4 with bigints as decimal strings', async () => {
    const typedData = await buildEip3009Authorization({
      token,
      chainId: 31337,
      from: wallet.evm.address,
      to: PAYEE,
      value: 2n ** 200n,
      reader,
    })
    const signature = await signTypedDataOverRelay(dapp, typedData)
    const sent = wallet.requests.at(-1)
    if (sent?.method !== 'eth_signTypedData_v4') throw new Error('expected eth_signTypedData_v4')
    const json = JSON.parse(sent.params[1])
    expect(json.message.value).toBe((2n ** 200n).toString())
    const { recoverTypedDataAddress } = await import('viem')
    const { EIP712Domain: _d, ...types } = typedData.types
    expect(
      await recoverTypedDataAddress({
        domain: typedData.domain as never,
        types,
        primaryType: 'TransferWithAuthorization',
        message: typedData.message as never,
        signature: signature as `0x${string}`,
      }),
    ).toBe(wallet.evm.address)
  })
})
