import { readFileSync } from 'node:fs'
import solc from 'solc'
import { type Abi, type Address, createWalletClient, type Hex, http, publicActions } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'

/** Compiles the fixture ERC-20 (`TestToken.sol`) with solc-js (Solidity 0.8, no network). */
export function compileTestToken(): { abi: Abi; bytecode: Hex } {
  const source = readFileSync(new URL('../fixtures/TestToken.sol', import.meta.url), 'utf8')
  const input = {
    language: 'Solidity',
    sources: { 'TestToken.sol': { content: source } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: Array<{ severity: string; formattedMessage: string }>
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>
  }
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'))
  const contract = output.contracts['TestToken.sol']?.TestToken
  if (!contract) throw new Error('solc produced no TestToken')
  return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` }
}

/** Deploys the token on anvil from `deployerKey`, `supply` to `holder`; its address once mined. */
export async function deployTestToken(
  rpcUrl: string,
  deployerKey: Hex,
  holder: Address,
  supply: bigint,
): Promise<{ address: Address; abi: Abi }> {
  const { abi, bytecode } = compileTestToken()
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
