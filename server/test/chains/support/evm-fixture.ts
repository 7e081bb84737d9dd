import {
  type Abi,
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  type Hex,
  http,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import {
  type RunningAnvil,
  type StartAnvilOptions,
  startAnvil,
} from '../../../../test/support/anvil'
import { MULTICALL3_ADDRESS } from '../../../src/chains/multicall3'
import { type ContractName, contracts } from './contracts'
import { MULTICALL3_CREATION_CODE } from './multicall3-bytecode'

/** anvil's first default dev account (mnemonic "test test ... junk"), funded with 10 000 ETH. */
export const DEPLOYER_KEY: Hex =
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
/** anvil's tenth default account: funded, never sends a transaction in these tests. */
export const UNTOUCHED_DEV_ACCOUNT: Address = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720'
export const DEV_ACCOUNT_BALANCE = 10_000n * 10n ** 18n

/** A real anvil plus viem clients to set up state the adapter then reads. */
export async function startEvmFixture(options: StartAnvilOptions = {}) {
  const anvil: RunningAnvil = await startAnvil(options)
  const transport = http(anvil.rpcUrl)
  // viem checks the node's chain id before it sends: anvil's own (`chainId` option, 31337 by default).
  const chain = { ...foundry, id: anvil.chainId }
  const account = privateKeyToAccount(DEPLOYER_KEY)
  const publicClient = createPublicClient({ chain, transport, cacheTime: 0 })
  const wallet = createWalletClient({ account, chain, transport })
  const testClient = createTestClient({ chain, mode: 'anvil', transport })

  async function deploy(name: ContractName, args: readonly unknown[]): Promise<Address> {
    const { abi, bytecode } = contracts()[name]
    const hash = await wallet.deployContract({ abi, bytecode, args })
    const receipt = await publicClient.waitForTransactionReceipt({ hash })
    if (!receipt.contractAddress) throw new Error(`${name} was not deployed`)
    return receipt.contractAddress
  }

  async function send(address: Address, name: ContractName, fn: string, args: unknown[]) {
    const abi: Abi = contracts()[name].abi
    const hash = await wallet.writeContract({ address, abi, functionName: fn, args })
    return publicClient.waitForTransactionReceipt({ hash })
  }

  /** Deploys creation code as is (no ABI): e.g. Multicall3's, compiled elsewhere. */
  async function deployBytecode(data: Hex): Promise<Address> {
    const hash = await wallet.sendTransaction({ data })
    const { contractAddress } = await publicClient.waitForTransactionReceipt({ hash })
    if (!contractAddress) throw new Error('nothing was deployed')
    return contractAddress
  }

  /**
   * Deploys the real Multicall3 and puts its code at the canonical address (as on mainnet, where
   * a keyless deployment put it there), then mines, so reads at the latest block see it.
   */
  async function deployMulticall3(): Promise<Address> {
    const code = await publicClient.getCode({
      address: await deployBytecode(MULTICALL3_CREATION_CODE),
    })
    await testClient.setCode({ address: MULTICALL3_ADDRESS, bytecode: code! })
    await testClient.mine({ blocks: 1 })
    return MULTICALL3_ADDRESS
  }

  return {
    anvil,
    chainId: `eip155:${anvil.chainId}`,
    publicClient,
    testClient,
    deploy,
    send,
    deployBytecode,
    deployMulticall3,
  }
}
