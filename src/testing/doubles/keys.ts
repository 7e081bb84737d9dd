import type { Hex } from 'viem'

/**
 * Fixed real keys of the test wallets (anvil's first dev accounts; two ed25519 seeds): every
 * signature a test makes is a real one, and a generated path knows the address the UI must show.
 * Never hold value with them.
 */
export const TEST_EVM_KEYS: readonly Hex[] = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
]

const seeds = (): Uint8Array[] => [1, 2].map((n) => new Uint8Array(32).fill(n))

/** The ed25519 secrets of the Solana test wallet's two accounts (fixed seeds of 1s and 2s). */
export const TEST_SOLANA_KEYS: readonly Uint8Array[] = /* @__PURE__ */ seeds()
