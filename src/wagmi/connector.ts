import type { CreateConnectorFn } from '@wagmi/core'
import type { Client } from '../client/client'
import { AppError, isAppError } from '../errors/app-error'
import { invalidArgument, isObjectLike } from '../errors/arguments'
import type { Caip2ChainId } from '../registry/types'
import {
  createScopeConnectProvider,
  evmConnection,
  type ScopeConnectProvider,
  type ScopeConnectRequest,
  toProviderError,
} from './provider'

/** The id of the connector `scopeConnect` makes, unless `parameters.id` says otherwise. */
export const SCOPE_CONNECT_CONNECTOR_ID = 'scopeConnect'

/** What the connector's module needs from its optional peers (`./peer`). */
type WagmiPeer = typeof import('./peer')

/** Parameters of `scopeConnect(parameters)`. */
export interface ScopeConnectParameters {
  /** The scope-connect `Client` whose connection wagmi follows (and which follows wagmi's). */
  client: Client
  /** The connector's id in wagmi (`connector.id`, `recentConnectorId`); default `scopeConnect`. */
  id?: string
  /** The connector's name in wagmi's lists; default `scope-connect`. */
  name?: string
  /** An icon (a URL or data URI) for wagmi's lists. */
  icon?: string
  /**
   * Loads the optional peers (`@wagmi/core` and `viem`); the default imports the entry's own chunk
   * of them. Tests replace it to act a missing peer.
   */
  importPeer?: () => Promise<WagmiPeer>
}

/**
 * Loads `@wagmi/core` and `viem` (the entry's `peer` chunk).
 * @throws {AppError} `WALLET_UNAVAILABLE` when either is not installed where scope-connect can
 * import it (the message says how to install them).
 */
async function loadPeer(importPeer: () => Promise<WagmiPeer>): Promise<WagmiPeer> {
  try {
    return await importPeer()
  } catch (error) {
    throw new AppError(
      'WALLET_UNAVAILABLE',
      'scope-connect/wagmi needs its optional peer dependencies; install them: npm install @wagmi/core viem',
      { cause: error },
    )
  }
}

/**
 * EIP-55 mixed-case form of an address, as wagmi's own connectors give it (viem's `getAddress`),
 * once the peers are loaded (by `setup()` or a first call); as the wallet gave it before.
 */
function checksummed(peer: WagmiPeer | null, address: string): `0x${string}` {
  try {
    return peer ? peer.getAddress(address) : (address as `0x${string}`)
  } catch {
    return address as `0x${string}`
  }
}

const sameAccounts = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((account, i) => account === b[i])

/**
 * A wagmi connector (`@wagmi/core`'s `CreateConnectorFn`) over a scope-connect `Client`: wagmi's
 * actions and hooks (`getAccount` / `useAccount`, `readContract`, `writeContract`, `getBalance`,
 * `switchChain`, `signMessage`, …) follow the Client's EVM connection, whatever its path
 * (injected, SDK, WalletConnect, relay pairing; the universal link is a Solana path), and each
 * side follows the other's connect and disconnect. Signatures, transactions and chain switches go through the Client's methods; reads
 * through the wagmi config's transports. `reconnect(config)` resumes the Client (`client.resume()`).
 * `@wagmi/core` and `viem` are optional peers, loaded on the connector's first call.
 * @throws {AppError} `INVALID_CONFIG` when `parameters.client` is not a scope-connect `Client`
 * (`details` names the field). The connector's `connect()` and `switchChain()` reject with viem's
 * `UserRejectedRequestError` / `SwitchChainError` (the Client's `AppError` as their cause), or with
 * the Client's `AppError`; with `AppError` `WALLET_UNAVAILABLE` when a peer is missing.
 */
export function scopeConnect(
  parameters: ScopeConnectParameters,
): CreateConnectorFn<ScopeConnectProvider> {
  if (!isObjectLike(parameters)) throw invalidArgument('parameters', 'must be an object')
  const { client } = parameters
  if (
    !isObjectLike(client) ||
    typeof client.getConnection !== 'function' ||
    typeof client.subscribe !== 'function' ||
    typeof client.connect !== 'function'
  )
    throw invalidArgument('client', 'must be a scope-connect Client')
  for (const field of ['id', 'name', 'icon'] as const) {
    if (parameters[field] !== undefined && typeof parameters[field] !== 'string')
      throw invalidArgument(field, 'must be a string')
  }
  const importPeer = parameters.importPeer ?? (() => import('./peer'))
  let loaded: WagmiPeer | null = null
  const peer = async () => {
    loaded ??= await loadPeer(importPeer)
    return loaded
  }
  /** The Client's EVM connection as wagmi takes it (checksummed accounts, decimal chain). */
  const connectionData = (
    client: Client,
  ): { accounts: `0x${string}`[]; chainId: number } | null => {
    const connection = evmConnection(client)
    if (!connection) return null
    return {
      accounts: connection.accounts.map((account) => checksummed(loaded, account)),
      chainId: connection.chainId,
    }
  }

  return (config) => {
    /** What wagmi was last told (`connect` / `change`), or null after `disconnect`. */
    let told: { accounts: `0x${string}`[]; chainId: number } | null = null
    let stopFollowing: (() => void) | null = null
    let resuming: Promise<boolean> | null = null

    /** The Client's connection changed: tell wagmi (connect, change or disconnect). */
    const follow = () => {
      const next = connectionData(client)
      if (next && !told) {
        told = next
        config.emitter.emit('connect', { accounts: next.accounts, chainId: next.chainId })
      } else if (!next && told) {
        told = null
        config.emitter.emit('disconnect')
      } else if (next && told) {
        const change: { accounts?: `0x${string}`[]; chainId?: number } = {}
        if (!sameAccounts(next.accounts, told.accounts)) change.accounts = next.accounts
        if (next.chainId !== told.chainId) change.chainId = next.chainId
        told = next
        if (change.accounts || change.chainId !== undefined) config.emitter.emit('change', change)
      }
    }

    const read = async (chainId: number, request: ScopeConnectRequest): Promise<unknown> => {
      const chain = config.chains.find((c) => c.id === chainId) ?? config.chains[0]
      const transport =
        config.transports?.[chainId] ??
        (await peer()).http(chain.rpcUrls.default.http[0], { retryCount: 0 })
      const { request: send } = transport({ chain, retryCount: 0 })
      return send(request as Parameters<typeof send>[0])
    }
    const provider = createScopeConnectProvider(client, read, config.chains[0].id)

    /** A user rejection as viem's `UserRejectedRequestError`, as wagmi's own connectors throw. */
    const walletError = async (error: unknown): Promise<unknown> => {
      if (isAppError(error, 'USER_REJECTED')) {
        const { UserRejectedRequestError } = await peer()
        return new UserRejectedRequestError(error)
      }
      return error
    }

    return {
      id: parameters.id ?? SCOPE_CONNECT_CONNECTOR_ID,
      name: parameters.name ?? 'scope-connect',
      type: SCOPE_CONNECT_CONNECTOR_ID,
      ...(parameters.icon === undefined ? {} : { icon: parameters.icon }),

      async setup() {
        // wagmi calls setup() while it builds its list of connectors: a `connect` emitted now would
        // name a connector it does not list yet (and be dropped), so follow after an await.
        // The peers first (wagmi's own addresses are checksummed); a missing one is reported by
        // connect(), not here (wagmi does not wait for setup()).
        await peer().catch(() => undefined)
        stopFollowing?.()
        // The subscription calls back at once: a Client already connected connects wagmi.
        stopFollowing = client.subscribe(follow)
      },

      async connect({ chainId, isReconnecting } = {}) {
        await peer()
        let data = connectionData(client)
        if (!data) {
          if (isReconnecting) {
            if (!(await this.isAuthorized()))
              throw new AppError('NOT_CONNECTED', 'No session to resume.')
          } else {
            try {
              await client.connect()
            } catch (error) {
              throw await walletError(error)
            }
          }
          data = connectionData(client)
          if (!data)
            throw new AppError('NOT_CONNECTED', 'The scope-connect connection is not an EVM one.')
        }
        if (chainId !== undefined && chainId !== data.chainId && !isReconnecting) {
          await this.switchChain?.({ chainId })
          data = connectionData(client) ?? data
        }
        told = data
        return { accounts: data.accounts, chainId: data.chainId } as never
      },

      async disconnect() {
        told = null
        await client.disconnect()
      },

      async getAccounts() {
        const data = connectionData(client)
        if (data) return data.accounts
        const { ConnectorNotConnectedError } = await peer()
        throw new ConnectorNotConnectedError()
      },

      async getChainId() {
        return connectionData(client)?.chainId ?? config.chains[0].id
      },

      async getProvider() {
        return provider
      },

      async isAuthorized() {
        if (connectionData(client)) return true
        // One resume at a time (wagmi asks isAuthorized, then connect({ isReconnecting })).
        resuming ??= client
          .resume()
          .then((result) => result.status === 'connected' && connectionData(client) !== null)
          .catch(() => false)
          .finally(() => {
            resuming = null
          })
        return resuming
      },

      async switchChain({ chainId }) {
        const { ChainNotConfiguredError, SwitchChainError } = await peer()
        const chain = config.chains.find((c) => c.id === chainId)
        if (!chain) throw new SwitchChainError(new ChainNotConfiguredError())
        try {
          await client.switchChain(`eip155:${chainId}` as Caip2ChainId)
        } catch (error) {
          const rejected = await walletError(error)
          if (rejected !== error) throw rejected
          throw new SwitchChainError(toProviderError(error) as never)
        }
        follow()
        return chain
      },

      onAccountsChanged(accounts) {
        if (accounts.length === 0) this.onDisconnect()
        else
          config.emitter.emit('change', {
            accounts: accounts.map((account) => checksummed(loaded, account)),
          })
      },

      onChainChanged(chain) {
        config.emitter.emit('change', { chainId: Number(chain) })
      },

      onDisconnect() {
        told = null
        config.emitter.emit('disconnect')
      },
    }
  }
}
