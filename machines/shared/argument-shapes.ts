import { invalidArgument, isObject, requireObject } from '../../src/errors/arguments'

// The shape checks of the factories and persistence helpers, apart from ./snapshot-argument: the
// `Client` entry loads the views up front, and these only with the machines that use them. `field`
// names the function and its argument (`createConnectActor: connector`).

/** Throws `INVALID_CONFIG` unless `value` is a number (NaN and infinities allowed: callers clamp). */
export function requireNumber(value: unknown, field: string): asserts value is number {
  if (typeof value !== 'number') throw invalidArgument(field, 'must be a number')
}

/** Throws `INVALID_CONFIG` unless `value` is an actor logic (a state machine, a `fromPromise`…). */
export function requireLogic(value: unknown, field: string): void {
  if (
    !isObject(value) ||
    typeof value.transition !== 'function' ||
    typeof value.getInitialSnapshot !== 'function'
  )
    throw invalidArgument(field, 'must be an actor logic (a machine from `setup().createMachine`)')
}

/** Throws `INVALID_CONFIG` unless `value` is a state machine (has a `root` state node). */
export function requireMachine(value: unknown, field: string): void {
  requireLogic(value, field)
  const machine = value as Record<string, unknown>
  if (!isObject(machine.root) || !isObject(machine.implementations) || !isObject(machine.config))
    throw invalidArgument(field, 'must be a state machine')
}

/**
 * Throws `INVALID_CONFIG` unless `options` is an object whose `inspect` (when given) is a function
 * or an observer object.
 */
export function requireInspectionOptions(options: unknown, fn: string): void {
  requireObject(options, `${fn}: options`)
  const inspect = options.inspect
  if (inspect !== undefined && typeof inspect !== 'function' && !isObject(inspect))
    throw invalidArgument(`${fn}: options.inspect`, 'must be a function or an observer')
}

/**
 * Throws `INVALID_CONFIG` unless `value` is a snapshot or a persisted snapshot: an object with a
 * `status` string, a `value`, a `context` object and (when present) a `children` object — what
 * `createActor(…, { snapshot })` restores from. Whether it fits the machine is `checkRestorable`'s.
 */
export function requireSnapshotLike(value: unknown, field: string): void {
  if (
    !isObject(value) ||
    typeof value.status !== 'string' ||
    !(typeof value.value === 'string' || isObject(value.value)) ||
    !isObject(value.context) ||
    (value.children !== undefined && !isObject(value.children))
  )
    throw invalidArgument(field, 'must be a persisted snapshot (from `getPersistedSnapshot()`)')
}

/**
 * Throws `INVALID_CONFIG` unless `value` is an object whose `methods` (space-separated names) are
 * functions.
 */
export function requireMethods(value: unknown, field: string, methods: string): void {
  if (!isObject(value) || methods.split(' ').some((key) => typeof value[key] !== 'function'))
    throw invalidArgument(field, `must be an object with ${methods}`)
}
