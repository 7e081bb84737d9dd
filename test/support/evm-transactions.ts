import { concat, createWalletClient, type Hex, http, numberToHex, padHex, stringToHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

/** anvil's first dev account (mnemonic "test test … junk"): a real secp256k1 key, funded. */
export const ANVIL_KEY_0: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
/** anvil's second dev account. */
export const ANVIL_KEY_1: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'

/**
 * Init code of a contract creation that always reverts with `Error(reason)`: it copies the
 * ABI-encoded error appended to itself into memory and reverts with it. Sent with an explicit
 * gas limit, it is mined as a reverted transaction whose reason the node can replay.
 */
export function revertingInitCode(reason: string): Hex {
  const text = stringToHex(reason)
  const length = (text.length - 2) / 2
  if (length > 32) throw new Error('reason longer than 32 bytes')
  const errorData = concat([
    '0x08c379a0', // Error(string)
    padHex(numberToHex(32), { size: 32 }),
    padHex(numberToHex(length), { size: 32 }),
    padHex(text, { size: 32, dir: 'right' }),
  ])
  const size = numberToHex(100, { size: 1 }).slice(2)
  // PUSH1 100, PUSH1 12, PUSH1 0, CODECOPY, PUSH1 100, PUSH1 0, REVERT: 12 bytes, then the data.
  const code = `0x60${size}600c600039` + `60${size}6000fd`
  return concat([code as Hex, errorData])
}

/** A viem wallet client on a real key against a real node (the "other" wallet of a test). */
export function keyWallet(rpcUrl: string, key: Hex = ANVIL_KEY_0) {
  return createWalletClient({ account: privateKeyToAccount(key), transport: http(rpcUrl) })
}

/** One raw JSON-RPC call to a node (mining control in tests: `evm_mine`, `evm_setAutomine`). */
export async function rpc<T = unknown>(rpcUrl: string, method: string, params: unknown[] = []) {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await response.json()) as { result?: T; error?: { message: string } }
  if (body.error) throw new Error(`${method}: ${body.error.message}`)
  return body.result as T
}
