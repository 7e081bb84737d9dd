import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { fileURLToPath } from 'node:url'
import solc from 'solc'
import type { Abi, Hex } from 'viem'

/**
 * Compiles contract `name` of the Solidity fixture at `source` with solc-js (Solidity 0.8, pure
 * wasm, no network): the bytecode deployed to anvil is exactly that file's.
 */
export function compileSolidity(source: URL, name: string): { abi: Abi; bytecode: Hex } {
  const file = basename(fileURLToPath(source))
  const input = {
    language: 'Solidity',
    sources: { [file]: { content: readFileSync(source, 'utf8') } },
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
  const contract = output.contracts[file]?.[name]
  if (!contract) throw new Error(`solc produced no ${name}`)
  return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` }
}
