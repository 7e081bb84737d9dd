import { fromCallback, fromPromise } from 'xstate'
import type { ConnectorEvent, IWalletConnector, WalletConnection } from '../../src/connectors/types'
import { AppError } from '../../src/errors/app-error'
import { isObject } from '../../src/errors/arguments'
import type { ErrorData } from '../shared/error-data'
import { walletErrorData } from '../shared/wallet-error-data'
import type {
  ConnectEvent,
  ConnectionData,
  PairingUriEvent,
  WalletWatchEvent,
} from './connect.types'

/** A silent reconnect the wallet does not authorize (or a connector that cannot ask). */
const NOT_AUTHORIZED: ErrorData = {
  code: 'NOT_CONNECTED',
  message: 'The wallet does not authorize this site without a prompt (locked, or access revoked).',
}

/**
 * A `WalletConnection` as plain data.
 * @throws `WALLET_ERROR` when `connection` is not an object with an `accounts` array (a connector's
 * malformed answer).
 */
export function toConnectionData(connection: WalletConnection): ConnectionData {
  if (!isObject(connection) || !Array.isArray(connection.accounts))
    throw new AppError(
      'WALLET_ERROR',
      'toConnectionData: the connection must be an object with an `accounts` array.',
    )
  return {
    walletId: connection.walletId ?? null,
    connectorId: connection.connectorId,
    namespace: connection.namespace,
    chainId: connection.chainId,
    accounts: [...connection.accounts],
  }
}

/**
 * Maps a connector event to the machine's `WALLET.*` event; `displayUri` is none of them. Never
 * throws: a malformed event (not an object, `accounts` not an array) gives null, as ignored.
 */
export function toWalletWatchEvent(event: ConnectorEvent): WalletWatchEvent | null {
  if (!isObject(event)) return null
  if (event.type === 'accountsChanged' && !Array.isArray(event.accounts)) return null
  switch (event.type) {
    case 'accountsChanged':
      return { type: 'WALLET.ACCOUNTS_CHANGED', accounts: [...event.accounts] }
    case 'chainChanged':
      return { type: 'WALLET.CHAIN_CHANGED', chainId: event.chainId }
    case 'displayUri':
      return null
    default:
      return { type: 'WALLET.DISCONNECTED' }
  }
}

/**
 * The connect machine's I/O bound to one connector: `connectWallet` (`connector.connect()`),
 * `reconnectWallet` (`connector.reconnect()`; no authorization, or no such method: `NOT_CONNECTED`),
 * `watchWallet` (`connector.subscribe`, when the connector has it), `watchPairingUri` (its
 * `displayUri` reports while connecting) and `disconnectWallet`. Errors are
 * thrown as JSON-safe data with user rejection normalised to `USER_REJECTED`.
 */
export function createConnectActors(connector: IWalletConnector) {
  return {
    connectWallet: fromPromise<ConnectionData>(async () => {
      try {
        return toConnectionData(await connector.connect())
      } catch (error) {
        throw walletErrorData(error)
      }
    }),
    reconnectWallet: fromPromise<ConnectionData>(async () => {
      let connection: WalletConnection | null
      try {
        connection = connector.reconnect ? await connector.reconnect() : null
      } catch (error) {
        const data = walletErrorData(error)
        // A silent request declined (a legacy Solana `onlyIfTrusted`): not authorized.
        throw data.code === 'USER_REJECTED' ? NOT_AUTHORIZED : data
      }
      if (connection === null) throw NOT_AUTHORIZED
      return toConnectionData(connection)
    }),
    watchWallet: fromCallback<ConnectEvent, void, WalletWatchEvent>(({ sendBack }) => {
      const unsubscribe = connector.subscribe?.((event) => {
        const watched = toWalletWatchEvent(event)
        if (watched) sendBack(watched)
      })
      return () => unsubscribe?.()
    }),
    watchPairingUri: fromCallback<ConnectEvent, void, PairingUriEvent>(({ sendBack }) => {
      const unsubscribe = connector.subscribe?.((event) => {
        if (event.type === 'displayUri') sendBack({ type: 'WALLET.PAIRING_URI', uri: event.uri })
      })
      return () => unsubscribe?.()
    }),
    disconnectWallet: fromPromise<void>(async () => {
      try {
        await connector.disconnect()
      } catch (error) {
        throw walletErrorData(error)
      }
    }),
  }
}
