import { type Actor, createActor, type SnapshotFrom } from 'xstate'
import type { IWalletConnector } from '../../src/connectors/types'
import { requireObject } from '../../src/errors/arguments'
import { requireInspectionOptions } from '../shared/argument-shapes'
import { type InspectionOptions, inspectorOptions } from '../shared/inspect'
import { createConnectActors } from './connect.actors'
import { connectMachine } from './connect.machine'

/** A running connect machine (`createConnectActor`). */
export type ConnectActor = Actor<typeof connectMachine>
/** A snapshot of the connect machine. */
export type ConnectSnapshot = SnapshotFrom<typeof connectMachine>

/** The connect machine with its actors bound to `connector`. */
export function provideConnect(connector: IWalletConnector) {
  return connectMachine.provide({ actors: createConnectActors(connector) })
}

/**
 * Creates (does not start) a connect actor for `connector`. Send `CONNECT`, then read
 * `snapshot.context.connection` in `connected`, or `snapshot.context.error` (`USER_REJECTED` in
 * `rejected`, `WALLET_ERROR` / `WALLET_UNAVAILABLE`… in `failed`). Never throws for wallet errors.
 * @throws `INVALID_CONFIG` when `connector` is not an object, or `options` (its `inspect`) is malformed.
 */
export function createConnectActor(
  connector: IWalletConnector,
  options: InspectionOptions = {},
): ConnectActor {
  requireObject(connector, 'createConnectActor: connector')
  requireInspectionOptions(options, 'createConnectActor')
  return createActor(provideConnect(connector), {
    input: { connectorId: connector.id },
    ...inspectorOptions(options),
  })
}
