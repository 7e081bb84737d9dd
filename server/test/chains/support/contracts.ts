import solc from 'solc'
import type { Abi, Hex } from 'viem'

/**
 * Test contracts, compiled from source with solc-js (pure wasm) when a test first needs them, so
 * the bytecode deployed to anvil is exactly the Solidity below.
 */
const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Minimal ERC-20: enough for balanceOf/decimals reads; anyone may mint.
contract TestToken {
  uint8 public immutable decimals;
  uint256 public totalSupply;
  mapping(address => uint256) public balanceOf;
  event Transfer(address indexed from, address indexed to, uint256 value);

  constructor(uint8 decimals_) { decimals = decimals_; }

  function mint(address to, uint256 amount) external {
    balanceOf[to] += amount;
    totalSupply += amount;
    emit Transfer(address(0), to, amount);
  }

  function transfer(address to, uint256 amount) external returns (bool) {
    balanceOf[msg.sender] -= amount;
    balanceOf[to] += amount;
    emit Transfer(msg.sender, to, amount);
    return true;
  }
}

/// A token without decimals() (optional in ERC-20): balances read, decimals must come from the query.
contract BareToken {
  mapping(address => uint256) public balanceOf;

  function mint(address to, uint256 amount) external { balanceOf[to] += amount; }
}

/// ERC-1271 contract wallet: a signature is valid when its signer is the owner.
contract OwnedWallet {
  address public immutable owner;

  constructor(address owner_) { owner = owner_; }

  function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
    if (signature.length != 65) return 0xffffffff;
    bytes32 r = bytes32(signature[0:32]);
    bytes32 s = bytes32(signature[32:64]);
    uint8 v = uint8(signature[64]);
    return ecrecover(hash, v, r, s) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
  }
}

/// A token whose balanceOf burns every unit of gas it is given (issue 28: 3.16 s of node CPU per
/// batch when eth_call carried no gas limit): it never returns, it runs out of gas.
contract GasBurner {
  uint8 public constant decimals = 18;

  function balanceOf(address) external view returns (uint256 spins) {
    while (gasleft() > 0) spins++;
  }
}

/// CREATE2 factory, so an OwnedWallet can sign before it exists (ERC-6492).
contract WalletFactory {
  function deploy(address owner, bytes32 salt) external returns (address) {
    return address(new OwnedWallet{salt: salt}(owner));
  }
}
`

export interface CompiledContract {
  abi: Abi
  bytecode: Hex
}

export type ContractName = 'TestToken' | 'BareToken' | 'OwnedWallet' | 'WalletFactory' | 'GasBurner'

let compiled: Record<ContractName, CompiledContract> | undefined

export function contracts(): Record<ContractName, CompiledContract> {
  compiled ??= compile()
  return compiled
}

function compile(): Record<ContractName, CompiledContract> {
  const input = {
    language: 'Solidity',
    sources: { 'Test.sol': { content: SOURCE } },
    settings: {
      evmVersion: 'cancun',
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[]
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>
  }
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error')
  if (errors.length > 0) {
    throw new Error(errors.map((error) => error.formattedMessage).join('\n'))
  }
  const pick = (name: ContractName): CompiledContract => {
    const contract = output.contracts['Test.sol']?.[name]
    if (!contract) throw new Error(`solc produced no ${name}`)
    return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` }
  }
  return {
    TestToken: pick('TestToken'),
    BareToken: pick('BareToken'),
    OwnedWallet: pick('OwnedWallet'),
    WalletFactory: pick('WalletFactory'),
    GasBurner: pick('GasBurner'),
  }
}
