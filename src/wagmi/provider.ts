import type { Client } from '../client/client'
import { AppError, type AppErrorCode, isAppError } from '../errors/app-error'
import { isProviderRpcError, ProviderRpcError } from '../errors/provider-rpc-error'
import type { Caip2ChainId } from '../registry/types'
import type { SendTransactionParameters } from '../transaction/types'

/** An EIP-1193 request. */
export interface ScopeConnectRequest {
  method: string
  params?: unknown
}

/**
 * The EIP-1193 provider of the `scopeConnect` wagmi connector: every request goes to the
 * scope-connect `Client` and its connected wallet, whatever the path (injected, WalletConnect,
 * relay pairing). Accounts and chain come from the Client's connection; signatures,
 * transactions and chain switches through its methods; other `eth_*` reads to the chain's RPC.
 * Errors are EIP-1193 errors (`code` 4001 user rejected, 4100 not connected, 4200 unsupported
 * method, 4902 unknown chain, -32002 busy, -32602 invalid parameters, -32603 other), each with the
 * Client's `AppError` as its `cause`.
 */
export interface ScopeConnectProvider {
  request(args: ScopeConnectRequest): Promise<unknown>
  on(event: string, listener: (...args: never[]) => void): void
  removeListener(event: string, listener: (...args: never[]) => void): void
}

/** Sends an `eth_*` read to a chain's RPC (the wagmi config's transport). */
export type ReadRequest = (chainId: number, request: ScopeConnectRequest) => Promise<unknown>

/** Methods a wallet answers: never forwarded to an RPC node. */
const WALLET_ONLY = /^(wallet_|eth_sign|personal_|eth_sendTransaction|eth_requestAccounts)/

/** The EVM connection of `client` (accounts and decimal chain), or null. */
export function evmConnection(
  client: Client,
): { accounts: readonly `0x${string}`[]; chainId: number } | null {
  const connection = client.getConnection()
  if (connection?.namespace !== 'eip155') return null
  const chainId = Number(connection.chainId.slice('eip155:'.length))
  if (!Number.isSafeInteger(chainId) || connection.accounts.length === 0) return null
  return { accounts: connection.accounts as readonly `0x${string}`[], chainId }
}

const PROVIDER_CODES: Partial<Record<AppErrorCode, number>> = {
  USER_REJECTED: 4001,
  NOT_CONNECTED: 4100,
  UNSUPPORTED_METHOD: 4200,
  UNSUPPORTED_CHAIN: 4902,
  WALLET_BUSY: -32002,
  INVALID_CONFIG: -32602,
}

/**
 * The EIP-1193 error for a Client error: `code` by the `AppError`'s code (-32603 by default), the
 * `AppError` as `cause` (its messages carry no secret). A provider error passes through.
 */
export function toProviderError(error: unknown): ProviderRpcError {
  if (error instanceof ProviderRpcError) return error
  const appError = isAppError(error)
    ? error
    : isProviderRpcError(error)
      ? new AppError('WALLET_ERROR', error.message, { cause: error })
      : new AppError('WALLET_ERROR', 'The request failed.', { cause: error })
  const code =
    PROVIDER_CODES[appError.code] ?? (isProviderRpcError(error) ? error.code : undefined) ?? -32603
  const providerError = new ProviderRpcError(code, appError.shortMessage, {
    appErrorCode: appError.code,
  })
  Object.defineProperty(providerError, 'cause', { value: appError, enumerable: false })
  return providerError
}

function providerError(code: number, message: string): ProviderRpcError {
  return new ProviderRpcError(code, message)
}

const isHex = (value: unknown): value is `0x${string}` =>
  typeof value === 'string' && /^0x[0-9a-fA-F]*$/.test(value)

function quantity(value: unknown, field: string): bigint | undefined {
  if (value === undefined || value === null) return undefined
  if (!isHex(value) || value.length < 3) throw providerError(-32602, `${field}: not a hex quantity`)
  return BigInt(value)
}

/** viem's `eth_sendTransaction` object → the Client's `sendTransaction` parameters. */
function transactionParameters(
  raw: unknown,
  account: string,
  connectionChain: number,
): SendTransactionParameters {
  if (typeof raw !== 'object' || raw === null) throw providerError(-32602, 'No transaction object.')
  const tx = raw as Record<string, unknown>
  if (typeof tx.from === 'string' && tx.from.toLowerCase() !== account.toLowerCase())
    throw providerError(4100, 'The transaction is from an account that is not connected.')
  const parameters: SendTransactionParameters = {}
  if (tx.to !== undefined) parameters.to = tx.to === null ? null : String(tx.to)
  if (tx.data !== undefined || tx.input !== undefined) parameters.data = String(tx.data ?? tx.input)
  const fields = ['value', 'gas', 'gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas'] as const
  for (const field of fields) {
    const value = quantity(tx[field], field)
    if (value !== undefined) parameters[field] = value
  }
  const nonce = quantity(tx.nonce, 'nonce')
  if (nonce !== undefined) parameters.nonce = Number(nonce)
  const chainId = quantity(tx.chainId, 'chainId')
  parameters.chainId = `eip155:${chainId ?? BigInt(connectionChain)}` as Caip2ChainId
  return parameters
}

function firstParam(params: unknown): unknown {
  return Array.isArray(params) ? params[0] : undefined
}

/**
 * An EIP-1193 provider over `client` (see `ScopeConnectProvider`); `read` answers the methods that
 * are not the wallet's (`eth_call`, `eth_getBalance`, …) on the connection's chain, or on
 * `fallbackChainId` while not connected.
 */
export function createScopeConnectProvider(
  client: Client,
  read: ReadRequest,
  fallbackChainId: number,
): ScopeConnectProvider {
  const connected = () => {
    const connection = evmConnection(client)
    if (!connection) throw providerError(4100, 'No EVM wallet is connected through scope-connect.')
    return connection
  }
  const answer = async ({ method, params }: ScopeConnectRequest): Promise<unknown> => {
    switch (method) {
      case 'eth_accounts':
        return [...(evmConnection(client)?.accounts ?? [])]
      case 'eth_chainId':
        return `0x${(evmConnection(client)?.chainId ?? fallbackChainId).toString(16)}`
      case 'eth_requestAccounts': {
        if (!evmConnection(client)) await client.connect()
        return [...connected().accounts]
      }
      case 'personal_sign': {
        const [data, address] = Array.isArray(params) ? params : []
        const { accounts } = connected()
        if (typeof address === 'string' && address.toLowerCase() !== accounts[0]?.toLowerCase())
          throw providerError(4100, 'personal_sign for an account that is not connected.')
        if (typeof data !== 'string') throw providerError(-32602, 'personal_sign: no message.')
        return client.signMessage(isHex(data) && data.length > 2 ? { raw: data } : data)
      }
      case 'eth_signTypedData_v4': {
        const [address, typedData] = Array.isArray(params) ? params : []
        const { accounts } = connected()
        if (typeof address === 'string' && address.toLowerCase() !== accounts[0]?.toLowerCase())
          throw providerError(4100, 'eth_signTypedData_v4 for an account that is not connected.')
        let parsed: unknown = typedData
        if (typeof typedData === 'string') {
          try {
            parsed = JSON.parse(typedData)
          } catch {
            throw providerError(-32602, 'eth_signTypedData_v4: typed data is not JSON.')
          }
        }
        if (typeof parsed !== 'object' || parsed === null)
          throw providerError(-32602, 'eth_signTypedData_v4: no typed data.')
        return client.signTypedData(parsed)
      }
      case 'eth_sendTransaction': {
        const { accounts, chainId } = connected()
        const handle = await client.sendTransaction(
          transactionParameters(firstParam(params), accounts[0] ?? '', chainId),
        )
        return handle.hash
      }
      case 'wallet_switchEthereumChain': {
        const target = quantity((firstParam(params) as { chainId?: unknown })?.chainId, 'chainId')
        if (target === undefined)
          throw providerError(-32602, 'wallet_switchEthereumChain: no chainId.')
        connected()
        await client.switchChain(`eip155:${target}` as Caip2ChainId)
        return null
      }
      default:
        throw providerError(4200, `scope-connect does not support ${method} here.`)
    }
  }
  return {
    async request(args) {
      if (typeof args !== 'object' || args === null || typeof args.method !== 'string')
        throw providerError(-32602, 'request({ method, params }): method is not a string.')
      const { method, params } = args
      // A read goes to the chain's RPC as it is; its errors are the transport's own.
      if (!WALLET_ONLY.test(method) && method !== 'eth_accounts' && method !== 'eth_chainId')
        return read(evmConnection(client)?.chainId ?? fallbackChainId, {
          method,
          ...(params === undefined ? {} : { params }),
        })
      try {
        return await answer(args)
      } catch (error) {
        throw toProviderError(error)
      }
    },
    // wagmi learns of changes from the connector's emitter, which follows the Client.
    on() {},
    removeListener() {},
  }
}
