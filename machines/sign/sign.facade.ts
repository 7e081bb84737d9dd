import { type Actor, createActor, type SnapshotFrom } from 'xstate'
import type { IWalletConnector } from '../../src/connectors/types'
import { requireObject } from '../../src/errors/arguments'
import { requireInspectionOptions } from '../shared/argument-shapes'
import { type InspectionOptions, inspectorOptions } from '../shared/inspect'
import { createSignActors, type SignVerifier } from './sign.actors'
import { signMachine } from './sign.machine'
import type { SignInput } from './sign.types'

/** A running sign machine (`createSignActor`). */
export type SignActor = Actor<typeof signMachine>
/** A snapshot of the sign machine. */
export type SignSnapshot = SnapshotFrom<typeof signMachine>

/**
 * Options of `createSignActor`: the default request and verification, the verifier and inspection.
 */
export interface SignActorOptions extends InspectionOptions {
  /** The request (and verification) to use when `SIGN` carries none. */
  input?: SignInput
  /** Needed when signing should be verified on the backend. */
  verifier?: SignVerifier
}

/** The sign machine with its actors bound to `connector` (and the verifier). */
export function provideSign(connector: IWalletConnector, verifier?: SignVerifier) {
  return signMachine.provide({ actors: createSignActors(connector, verifier) })
}

/**
 * Creates (does not start) a sign actor. Send `SIGN`; the actor ends in `signed` (output
 * `{ signature, verification }`), or waits in `rejected` (`USER_REJECTED`) / `failed`
 * (`WALLET_ERROR`, `BACKEND_ERROR` from verification) for `RETRY` or `RESET`. Never throws for
 * wallet or backend errors.
 * @throws `INVALID_CONFIG` when `connector` is not an object, or `options` (its `inspect`) is malformed.
 */
export function createSignActor(
  connector: IWalletConnector,
  options: SignActorOptions = {},
): SignActor {
  requireObject(connector, 'createSignActor: connector')
  requireInspectionOptions(options, 'createSignActor')
  // The facade's own `input` option (the sign request), not an actor's.
  const { input = {} } = options
  return createActor(provideSign(connector, options.verifier), {
    input,
    ...inspectorOptions(options),
  })
}
