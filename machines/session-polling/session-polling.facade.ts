import { type Actor, createActor, type SnapshotFrom } from 'xstate'
import { AppError } from '../../src/errors/app-error'
import { isObject, requireFunction, requireObject } from '../../src/errors/arguments'
import type { GenericSession } from '../../src/session/types'
import {
  requireInspectionOptions,
  requireMethods,
  requireSnapshotLike,
} from '../shared/argument-shapes'
import { type InspectOption, inspectorOptions } from '../shared/inspect'
import {
  createMemoryTokenVault,
  createSessionPollingActors,
  type PollingEnvironment,
  type SessionPollingClient,
  type SessionTokenVault,
} from './session-polling.actors'
import { sessionPollingMachine } from './session-polling.machine'
import type { CreateSessionParams, PollTarget, SessionRef } from './session-polling.types'

/**
 * Options of `createSessionPollingActor`: the backend, an existing session or one to create,
 * cadence, deadline, attempt cap, token vault and inspection.
 */
export interface SessionPollingActorOptions extends PollingEnvironment {
  /** An existing session: its token goes into the vault, the rest into the machine. */
  session?: GenericSession | (SessionRef & { sessionToken: string })
  /** Or the parameters to create one. */
  create?: CreateSessionParams
  target?: PollTarget
  pollIntervalMs?: readonly [number, number] | number
  timeoutMs?: number
  maxAttempts?: number
  /** Where tokens live; default an in-memory vault private to this actor. */
  vault?: SessionTokenVault
  /** An inspector (`@statelyai/inspect`'s `inspector.inspect`, or a function). */
  inspect?: InspectOption
  /**
   * Default `true`: the inspector receives events sanitised by `sanitizeInspectionEvent`. Set `false`
   * only for local debugging.
   */
  sanitizeInspection?: boolean
}

/** A running session-polling machine (`createSessionPollingActor`). */
export type SessionPollingActor = Actor<typeof sessionPollingMachine>
/** A snapshot of the session-polling machine. */
export type SessionPollingSnapshot = SnapshotFrom<typeof sessionPollingMachine>

/**
 * The machine with its actors bound to `client` (and the vault); for `createActor` by hand.
 * @throws `INVALID_CONFIG` as `createSessionPollingActors`.
 */
export function provideSessionPolling(
  client: SessionPollingClient,
  vault: SessionTokenVault,
  env: PollingEnvironment = {},
) {
  return sessionPollingMachine.provide({ actors: createSessionPollingActors(client, vault, env) })
}

/**
 * Creates (does not start) a polling actor bound to `client`. Subscribe to it from a UI:
 * `actor.subscribe((s) => render(s.value, s.context.result))`, then `actor.start()`.
 *
 * Throws `INVALID_CONFIG` when neither `session` nor `create` is given, or when `client` or
 * `options` (its vault, clocks, inspector) are not of their types. Failures of the flow are not
 * thrown: they end in a final state whose output is `{ ok: false, error }`.
 */
export function createSessionPollingActor(
  client: SessionPollingClient,
  options: SessionPollingActorOptions,
): SessionPollingActor {
  requirePollingArguments('createSessionPollingActor', client, options, false)
  if (options.session !== undefined && !isObject(options.session))
    throw new AppError(
      'INVALID_CONFIG',
      'createSessionPollingActor: `options.session` must be an object.',
    )
  const vault = options.vault ?? createMemoryTokenVault()
  const now = options.now ?? Date.now
  let session: SessionRef | undefined
  if (options.session) {
    requireFunction(vault.set, 'createSessionPollingActor: options.vault.set')
    const { sessionToken, ...ref } = options.session
    vault.set(ref.sessionId, sessionToken)
    session = ref
  } else if (!options.create) {
    throw new AppError('INVALID_CONFIG', 'Pass either `session` or `create`.')
  }
  return createActor(provideSessionPolling(client, vault, { now, ...pickRandom(options) }), {
    input: {
      startedAt: now(),
      ...(session ? { session } : {}),
      ...(options.create && !session ? { create: options.create } : {}),
      ...(options.target ? { target: options.target } : {}),
      ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.maxAttempts !== undefined ? { maxAttempts: options.maxAttempts } : {}),
    },
    ...inspectorOptions(options),
  })
}

/** The shapes both factories read before building the actor. */
function requirePollingArguments(
  fn: string,
  client: unknown,
  options: unknown,
  needsVault: boolean,
): void {
  requireObject(client, `${fn}: client`)
  requireInspectionOptions(options, fn)
  const o = options as Record<string, unknown>
  if (needsVault || o.vault !== undefined) {
    requireMethods(o.vault, `${fn}: options.vault`, 'get')
  }
  requireFunction(o.now, `${fn}: options.now`, true)
  requireFunction(o.random, `${fn}: options.random`, true)
}

function pickRandom(env: PollingEnvironment): PollingEnvironment {
  return env.random ? { random: env.random } : {}
}

/**
 * Restores a persisted polling snapshot (`actor.getPersistedSnapshot()`), starts it and, because
 * XState does not restore pending `after` timers, sends `POLL_NOW` when it was sleeping. The absolute
 * deadline in the snapshot still applies. The vault must still hold the session's token.
 * @throws `INVALID_CONFIG` when `client`, `snapshot` or `options` (its vault) are not of their types.
 */
export function resumeSessionPollingActor(
  client: SessionPollingClient,
  snapshot: SessionPollingSnapshot | ReturnType<SessionPollingActor['getPersistedSnapshot']>,
  options: Pick<
    SessionPollingActorOptions,
    'vault' | 'now' | 'random' | 'inspect' | 'sanitizeInspection'
  > & {
    vault: SessionTokenVault
  },
): SessionPollingActor {
  requirePollingArguments('resumeSessionPollingActor', client, options, true)
  requireSnapshotLike(snapshot, 'resumeSessionPollingActor: snapshot')
  const machine = provideSessionPolling(client, options.vault, options)
  const actor = createActor(machine, {
    snapshot: snapshot as never,
    input: undefined as never,
    ...inspectorOptions(options),
  })
  actor.start()
  const restored = actor.getSnapshot()
  if (
    restored.status === 'active' &&
    (restored.matches({ waiting: 'sleeping' }) || restored.matches({ connected: 'sleeping' }))
  ) {
    actor.send({ type: 'POLL_NOW' })
  }
  return actor
}
