import { type Actor, createActor } from 'xstate'
import { invalidArgument, isObject, requireObject } from '../../src/errors/arguments'
import { requireLogic, requireSnapshotLike } from '../shared/argument-shapes'
import type { InspectOption } from '../shared/inspect'
import type { SecretRegistry } from '../shared/secret-registry'
import type { provideClient } from './client.actors'
import type { clientMachine } from './client.machine'
import { createRedactingInspector } from './client.redact'
import type { ClientTimeouts } from './client.types'

/** The root actor of a `Client`: the one actor system every flow runs in. */
export type ClientActor = Actor<typeof clientMachine>

/** Options of `createClientActor`. */
export interface ClientActorOptions {
  timeouts?: Partial<ClientTimeouts>
  /** One inspector for the whole system; it sees nothing in `secrets` nor any key named like a secret. */
  inspect?: InspectOption
  secrets: SecretRegistry
  /** A persisted snapshot to restore (see `checkRestorable`). */
  snapshot?: unknown
}

/**
 * Creates (does not start) the root actor. Every child — connector loading, `connection`, `sign`,
 * `universalLink` and its `sessionPolling` child, config and balance reads — runs in its system,
 * so the one `inspect` observer sees every actor.
 * @throws `INVALID_CONFIG` when `machine` is not an actor logic, or `options` (its `timeouts`, `snapshot`,
 * `secrets` beside `inspect`) are not of their types. Whether a snapshot fits is `checkRestorable`'s.
 */
export function createClientActor(
  machine: ReturnType<typeof provideClient>,
  options: ClientActorOptions,
): ClientActor {
  requireLogic(machine, 'createClientActor: machine')
  requireObject(options, 'createClientActor: options')
  if (options.timeouts !== undefined && !isObject(options.timeouts))
    throw invalidArgument('createClientActor: options.timeouts', 'must be an object')
  if (options.snapshot !== undefined)
    requireSnapshotLike(options.snapshot, 'createClientActor: options.snapshot')
  if (options.inspect !== undefined && !isObject(options.secrets))
    throw invalidArgument('createClientActor: options.secrets', 'must be a secret registry')
  return createActor(machine, {
    input: options.timeouts ? { timeouts: options.timeouts } : {},
    ...(options.snapshot === undefined ? {} : { snapshot: options.snapshot as never }),
    ...(options.inspect
      ? { inspect: createRedactingInspector(options.inspect, options.secrets) }
      : {}),
  })
}
