import type { Hex } from 'viem'
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import type {
  ConnectorEvent,
  IWalletConnector,
  RequestArgs,
  WalletConnection,
} from '../../../src/connectors/types'
import { ProviderRpcError, USER_REJECTED_CODE } from '../../../src/errors'

/** Anvil's well-known first two dev keys. */
export const DEV_KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
] as const

export type Behaviour = 'ok' | 'reject' | 'fail'

/**
 * A tiny connector over a REAL viem local account: `personal_sign` really signs (EIP-191); the test
 * decides whether connect / sign succeed, are rejected by the user (4001) or fail otherwise.
 */
export class ViemTestConnector implements IWalletConnector {
  readonly id = 'test:viem'
  account: PrivateKeyAccount
  chainId = 'eip155:31337'
  connectBehaviour: Behaviour = 'ok'
  signBehaviour: Behaviour = 'ok'
  disconnectBehaviour: Behaviour = 'ok'
  /** `fail`: the silent reconnect throws; otherwise it answers by `authorized`. */
  reconnectBehaviour: 'ok' | 'fail' = 'ok'
  /** The site's standing authorization in the wallet (granted by connect, ended by disconnect). */
  authorized = false
  connected = false
  connectCalls = 0
  disconnectCalls = 0
  readonly requests: RequestArgs[] = []
  readonly #listeners = new Set<(event: ConnectorEvent) => void>()

  constructor(privateKey: Hex = DEV_KEYS[0]) {
    this.account = privateKeyToAccount(privateKey)
  }

  get listenerCount() {
    return this.#listeners.size
  }

  isAvailable() {
    return true
  }

  async connect(): Promise<WalletConnection> {
    if (this.connectBehaviour === 'reject')
      throw new ProviderRpcError(USER_REJECTED_CODE, 'User rejected the request.')
    if (this.connectBehaviour === 'fail') throw new ProviderRpcError(-32603, 'Internal error')
    this.connectCalls += 1
    this.authorized = true
    return this.#connection()
  }

  async reconnect(): Promise<WalletConnection | null> {
    if (this.reconnectBehaviour === 'fail') throw new ProviderRpcError(-32603, 'Internal error')
    return this.authorized ? this.#connection() : null
  }

  #connection(): WalletConnection {
    this.connected = true
    return {
      walletId: undefined,
      connectorId: this.id,
      namespace: 'eip155',
      chainId: this.chainId as `${string}:${string}`,
      accounts: [this.account.address],
    }
  }

  async request<T>(args: RequestArgs): Promise<T> {
    this.requests.push(args)
    if (args.method !== 'personal_sign')
      throw new ProviderRpcError(4200, `Unsupported method ${args.method}`)
    if (this.signBehaviour === 'reject')
      throw { code: USER_REJECTED_CODE, message: 'User denied message signature.' }
    if (this.signBehaviour === 'fail') throw new ProviderRpcError(-32000, 'Ledger disconnected')
    const [messageHex, address] = args.params as [Hex, string]
    if (address.toLowerCase() !== this.account.address.toLowerCase())
      throw new ProviderRpcError(4100, 'Unauthorized')
    return (await this.account.signMessage({ message: { raw: messageHex } })) as T
  }

  getAccounts() {
    return this.connected ? [this.account.address] : []
  }

  async disconnect() {
    this.disconnectCalls += 1
    if (this.disconnectBehaviour === 'fail') throw new Error('disconnect failed')
    this.connected = false
    this.authorized = false
  }

  subscribe(listener: (event: ConnectorEvent) => void) {
    this.#listeners.add(listener)
    return () => void this.#listeners.delete(listener)
  }

  /** Simulates a wallet-side change. */
  emit(event: ConnectorEvent) {
    for (const listener of this.#listeners) listener(event)
  }
}
