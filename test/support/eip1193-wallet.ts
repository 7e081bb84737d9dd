import {
  createClient,
  createWalletClient,
  type Hex,
  http,
  isAddressEqual,
  isHex,
  type LocalAccount,
  numberToHex,
  type TypedDataDefinition,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import type { Eip1193Provider, RequestArgs } from '../../src/connectors/types'

/** An EIP-1193 error as wallets throw it: an `Error` with a numeric `code`. */
export class WalletRpcError extends Error {
  readonly code: number

  constructor(code: number, message: string) {
    super(message)
    this.code = code
  }
}

export interface TestEip1193WalletOptions {
  /** A real node (anvil) that receives every request the wallet does not answer itself. */
  rpcUrl: string
  /** Keys of the wallet's accounts; default two fresh random keys. The first is the active one. */
  privateKeys?: Hex[]
  /** Decimal chain ids the wallet can switch to, besides the node's own. */
  extraChains?: number[]
  /** Answers EIP-5792 (`wallet_getCapabilities`, `wallet_sendCalls`, `wallet_getCallsStatus`). */
  eip5792?: boolean
}

export interface TestEip1193Wallet extends Eip1193Provider {
  on(event: string, listener: (...args: never[]) => void): void
  removeListener(event: string, listener: (...args: never[]) => void): void
  /** The wallet's accounts, the active one first. */
  readonly accounts: readonly LocalAccount[]
  /** The chain the wallet is on (decimal). */
  readonly chainId: number
  /** Every request the wallet received, in order. */
  readonly requests: RequestArgs[]
  /**
   * The next request (of `method`, when given) fails as if the user clicked "Reject" (code 4001),
   * or with `code` (e.g. -32603, an internal error).
   */
  rejectNextRequest(method?: string, code?: number): void
  /** The user locks the wallet: `eth_accounts` answers `[]` until the next `eth_requestAccounts`. */
  lock(): void
  /** Chains added with `wallet_addEthereumChain`, by decimal id, with the parameter given. */
  readonly addedChains: ReadonlyMap<number, Record<string, unknown>>
  /** The next request waits until the returned function is called (a user who has not clicked yet). */
  holdNextRequest(): () => void
  /** Makes `address` the active account and emits `accountsChanged`, as the wallet UI would. */
  switchAccount(address: Hex): void
  /** The wallet drops the connection and emits `disconnect`. */
  disconnectFromWallet(): void
  /** Emits any event to the registered listeners. */
  emit(event: string, ...args: unknown[]): void
  /** How many listeners are registered, for one event or in all. */
  listenerCount(event?: string): number
}

/**
 * A browser-wallet stand-in built on real viem local accounts: it signs with real secp256k1 keys and
 * forwards every other request (reads, `eth_*` the wallet does not own) to a real node.
 */
export async function createEip1193TestWallet(
  options: TestEip1193WalletOptions,
): Promise<TestEip1193Wallet> {
  const node = createClient({ transport: http(options.rpcUrl, { retryCount: 0 }) })
  const nodeChainId = Number(await node.request({ method: 'eth_chainId' }))
  const knownChains = new Set([nodeChainId, ...(options.extraChains ?? [])])
  const accounts = (options.privateKeys ?? [generatePrivateKey(), generatePrivateKey()]).map(
    (key) => privateKeyToAccount(key),
  )
  const listeners = new Map<string, Set<(...args: never[]) => void>>()
  const requests: RequestArgs[] = []
  let chainId = nodeChainId
  let authorized = false
  let rejectNext: { method: string | undefined; code: number } | null = null
  const addedChains = new Map<number, Record<string, unknown>>()
  let holdNext: Promise<void> | null = null
  const batches = new Map<string, Hex[]>()
  /** Signs with the account's real key and broadcasts the raw transaction to the node. */
  const sendTransaction = (tx: Record<string, string | undefined>): Promise<Hex> => {
    const account = signer(tx.from)
    const quantity = (value: string | undefined) =>
      value === undefined ? undefined : BigInt(value)
    return createWalletClient({
      account,
      transport: http(options.rpcUrl, { retryCount: 0 }),
    }).sendTransaction({
      chain: null,
      to: tx.to as Hex | undefined,
      data: tx.data as Hex | undefined,
      value: quantity(tx.value),
      gas: quantity(tx.gas),
      maxFeePerGas: quantity(tx.maxFeePerGas),
      maxPriorityFeePerGas: quantity(tx.maxPriorityFeePerGas),
      ...(tx.nonce === undefined ? {} : { nonce: Number(tx.nonce) }),
    } as Parameters<ReturnType<typeof createWalletClient>['sendTransaction']>[0])
  }

  const emit = (event: string, ...args: unknown[]) => {
    for (const listener of [...(listeners.get(event) ?? [])]) {
      ;(listener as (...values: unknown[]) => void)(...args)
    }
  }
  const addresses = () => accounts.map((account) => account.address)
  const signer = (address: unknown): LocalAccount => {
    const account = accounts.find(
      (item) => typeof address === 'string' && isAddressEqual(item.address, address as Hex),
    )
    if (!account || !authorized)
      throw new WalletRpcError(4100, 'The requested account is not authorized.')
    return account
  }

  const answer = async ({ method, params }: RequestArgs): Promise<unknown> => {
    const list = (Array.isArray(params) ? params : []) as unknown[]
    switch (method) {
      case 'eth_requestAccounts':
        authorized = true
        return addresses()
      case 'eth_accounts':
        return authorized ? addresses() : []
      case 'eth_chainId':
        return numberToHex(chainId)
      case 'personal_sign': {
        const [data, address] = list
        const message = isHex(data) ? { raw: data } : String(data)
        return signer(address).signMessage({ message })
      }
      case 'eth_signTypedData_v4': {
        const [address, typedData] = list
        const definition = (
          typeof typedData === 'string' ? JSON.parse(typedData) : typedData
        ) as TypedDataDefinition
        return signer(address).signTypedData(definition)
      }
      case 'wallet_switchEthereumChain': {
        const target = Number((list[0] as { chainId?: string } | undefined)?.chainId)
        if (!knownChains.has(target)) {
          throw new WalletRpcError(4902, `Unrecognized chain ID ${target}.`)
        }
        if (target !== chainId) {
          chainId = target
          emit('chainChanged', numberToHex(target))
        }
        return null
      }
      case 'wallet_addEthereumChain': {
        // EIP-3085: the wallet checks the parameter as MetaMask does before it adds the chain.
        const parameter = (list[0] ?? {}) as Record<string, unknown>
        const target = Number(parameter.chainId)
        const rpcUrls = parameter.rpcUrls
        if (
          !Number.isSafeInteger(target) ||
          target <= 0 ||
          typeof parameter.chainName !== 'string' ||
          !Array.isArray(rpcUrls) ||
          rpcUrls.length === 0 ||
          typeof (parameter.nativeCurrency as { symbol?: unknown } | undefined)?.symbol !== 'string'
        ) {
          throw new WalletRpcError(-32602, 'Invalid wallet_addEthereumChain parameter.')
        }
        knownChains.add(target)
        addedChains.set(target, parameter)
        return null
      }
      case 'eth_sendTransaction':
        return sendTransaction(list[0] as Record<string, string>)
      case 'wallet_getCapabilities':
        if (!options.eip5792) throw new WalletRpcError(4200, 'Unsupported method.')
        return { [numberToHex(chainId)]: { atomic: { status: 'unsupported' } } }
      case 'wallet_sendCalls': {
        if (!options.eip5792) throw new WalletRpcError(4200, 'Unsupported method.')
        const batch = list[0] as { from: string; calls: Record<string, string>[] }
        const hashes: Hex[] = []
        for (const call of batch.calls)
          hashes.push(await sendTransaction({ ...call, from: batch.from }))
        const id = `batch-${batches.size + 1}`
        batches.set(id, hashes)
        return { id }
      }
      case 'wallet_getCallsStatus': {
        const hashes = batches.get(String(list[0]))
        if (!hashes) throw new WalletRpcError(5730, 'Unknown bundle id.')
        return { status: 200, receipts: hashes.map((transactionHash) => ({ transactionHash })) }
      }
      case 'wallet_revokePermissions':
        authorized = false
        return null
      default:
        return node.request({ method, params } as Parameters<typeof node.request>[0])
    }
  }

  return {
    accounts,
    get chainId() {
      return chainId
    },
    requests,
    addedChains,
    async request(args) {
      requests.push(args)
      if (holdNext) {
        const held = holdNext
        holdNext = null
        await held
      }
      if (rejectNext && (rejectNext.method === undefined || rejectNext.method === args.method)) {
        const { code } = rejectNext
        rejectNext = null
        throw new WalletRpcError(
          code,
          code === 4001 ? 'User rejected the request.' : 'Internal error.',
        )
      }
      return answer(args)
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set()
      set.add(listener)
      listeners.set(event, set)
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener)
    },
    rejectNextRequest(method, code = 4001) {
      rejectNext = { method, code }
    },
    lock() {
      authorized = false
      emit('accountsChanged', [])
    },
    holdNextRequest() {
      let release = () => {}
      holdNext = new Promise<void>((resolve) => {
        release = resolve
      })
      return release
    },
    switchAccount(address) {
      const index = accounts.findIndex((account) => isAddressEqual(account.address, address))
      if (index < 0) throw new Error(`Not an account of this wallet: ${address}`)
      accounts.unshift(...accounts.splice(index, 1))
      emit('accountsChanged', addresses())
    },
    disconnectFromWallet() {
      authorized = false
      emit('disconnect', new WalletRpcError(4900, 'The wallet is disconnected.'))
    },
    emit,
    listenerCount(event) {
      if (event !== undefined) return listeners.get(event)?.size ?? 0
      return [...listeners.values()].reduce((total, set) => total + set.size, 0)
    },
  }
}
