import { readFileSync } from 'node:fs'
import solc from 'solc'
import type { Abi, Hex } from 'viem'

/** Compiles the fixture EIP-3009 token with solc-js (Solidity 0.8, no network). */
export function compileEip3009Token(): { abi: Abi; bytecode: Hex } {
  const source = readFileSync(new URL('../fixtures/Eip3009Token.sol', import.meta.url), 'utf8')
  const input = {
    language: 'Solidity',
    sources: { 'Eip3009Token.sol': { content: source } },
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
  const contract = output.contracts['Eip3009Token.sol']?.Eip3009Token
  if (!contract) throw new Error('solc produced no Eip3009Token')
  return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` }
}
