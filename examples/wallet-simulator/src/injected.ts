import type { Hex, LocalAccount } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

/**
 * The wallet simulator as a browser extension would be: an EIP-1193 provider on a real viem key,
 * announced by EIP-6963 so a dApp finds it (`listEip6963Providers`, `Eip6963Connector`). It
 * answers at once, as if the user approved everything; for the demo and the Chromium tests only —
 * a page that loads it holds the private key.
 */

/** Anvil's first dev account (mnemonic "test test … junk"): a well-known key, funded on the dev chain. */
export const ANVIL_ACCOUNT_0: Hex =
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'

/** What the simulator announces: `info` of its EIP-6963 announcement. */
export const INJECTED_WALLET_INFO = {
  name: 'Wallet Simulator (test key)',
  rdns: 'org.scope-connect.wallet-simulator',
  icon: 'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"%3E%3Crect width="8" height="8" fill="%23468"/%3E%3C/svg%3E',
} as const

/** A minimal EIP-1193 provider. */
export interface TestKeyProvider {
  account: LocalAccount
  request(args: { method: string; params?: unknown }): Promise<unknown>
  on(event: string, listener: (...args: never[]) => void): void
  removeListener(event: string, listener: (...args: never[]) => void): void
}

function rpcError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code })
}

/**
 * An EIP-1193 provider for `privateKey` on chain `chainId` (default 31337, the dev chain):
 * `eth_requestAccounts`, `eth_accounts`, `eth_chainId`, `personal_sign`, `eth_signTypedData_v4`,
 * `wallet_revokePermissions`. Other methods reject with code 4200.
 */
export function createTestKeyProvider(
  privateKey: Hex = ANVIL_ACCOUNT_0,
  chainId = 31337,
): TestKeyProvider {
  const account = privateKeyToAccount(privateKey)
  return {
    account,
    async request({ method, params }) {
      const list = Array.isArray(params) ? params : []
      switch (method) {
        case 'eth_requestAccounts':
        case 'eth_accounts':
          return [account.address]
        case 'eth_chainId':
          return `0x${chainId.toString(16)}`
        case 'personal_sign':
          return account.signMessage({ message: { raw: list[0] as Hex } })
        case 'eth_signTypedData_v4': {
          const { types, primaryType, domain, message } = JSON.parse(String(list[1]))
          const { EIP712Domain: _domainType, ...rest } = types
          return account.signTypedData({ types: rest, primaryType, domain, message })
        }
        case 'wallet_revokePermissions':
          return null
        default:
          throw rpcError(4200, `${method} is not supported by the wallet simulator.`)
      }
    },
    on() {},
    removeListener() {},
  }
}

/**
 * Announces `provider` by EIP-6963 now and on every `eip6963:requestProvider`.
 * Returns a function that stops answering requests.
 */
export function announceEip6963(
  provider: TestKeyProvider,
  info: { name: string; rdns: string; icon: string } = INJECTED_WALLET_INFO,
): () => void {
  const detail = Object.freeze({ info: { uuid: crypto.randomUUID(), ...info }, provider })
  const announce = () =>
    window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
  window.addEventListener('eip6963:requestProvider', announce)
  announce()
  return () => window.removeEventListener('eip6963:requestProvider', announce)
}
