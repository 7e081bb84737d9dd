import { type Abi, type Address, createWalletClient, type Hex, http, publicActions } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { compileSolidity } from '../../support/compile-solidity'

/** Deploys the token on anvil from `deployerKey`, `supply` to `holder`; its address once mined. */
export async function deployTestToken(
  rpcUrl: string,
  deployerKey: Hex,
  holder: Address,
  supply: bigint,
): Promise<{ address: Address; abi: Abi }> {
  const { abi, bytecode } = compileSolidity(
    new URL('../fixtures/TestToken.sol', import.meta.url),
    'TestToken',
  )
  const deployer = createWalletClient({
    account: privateKeyToAccount(deployerKey),
    chain: foundry,
    transport: http(rpcUrl, { retryCount: 0 }),
  }).extend(publicActions)
  const hash = await deployer.deployContract({ abi, bytecode, args: [holder, supply] })
  const receipt = await deployer.waitForTransactionReceipt({ hash, pollingInterval: 50 })
  if (!receipt.contractAddress) throw new Error('the token was not deployed')
  return { address: receipt.contractAddress, abi }
}
