import { AppError } from '../../src/errors/app-error'

// Cheap checks at the public boundary of `scope-connect/machines` (issue 27: no raw `TypeError`
// from a public function). Each throws `INVALID_CONFIG` naming the function and the argument; valid
// input passes unchanged. Only shapes are checked (what the function reads first), not values.

/** `INVALID_CONFIG`: `fn`'s `name` is not `expected`. */
export function invalidArgument(fn: string, name: string, expected: string): AppError {
  return new AppError('INVALID_CONFIG', `${fn}: \`${name}\` must be ${expected}.`)
}

/** True for a non-null object (an array included). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

/** Throws `INVALID_CONFIG` unless `value` is a non-null object. */
export function requireObject(
  value: unknown,
  fn: string,
  name: string,
): asserts value is Record<string, unknown> {
  if (!isObject(value)) throw invalidArgument(fn, name, 'an object')
}

/** Throws `INVALID_CONFIG` unless `value` is a function (or, with `optional`, undefined). */
export function requireFunction(value: unknown, fn: string, name: string, optional = false): void {
  if (optional && value === undefined) return
  if (typeof value !== 'function') throw invalidArgument(fn, name, 'a function')
}

/** Throws `INVALID_CONFIG` unless `value` is a string. */
export function requireString(value: unknown, fn: string, name: string): asserts value is string {
  if (typeof value !== 'string') throw invalidArgument(fn, name, 'a string')
}

/** Throws `INVALID_CONFIG` unless `value` is a number (NaN and infinities allowed: callers clamp). */
export function requireNumber(value: unknown, fn: string, name: string): asserts value is number {
  if (typeof value !== 'number') throw invalidArgument(fn, name, 'a number')
}

/**
 * Throws `INVALID_CONFIG` unless `value` looks like an actor snapshot: an object with a `context`
 * object, a `status` string, a `children` object and `hasTag` / `matches` functions.
 */
export function requireSnapshot(value: unknown, fn: string, name = 'snapshot'): void {
  if (
    !isObject(value) ||
    !isObject(value.context) ||
    typeof value.status !== 'string' ||
    !isObject(value.children) ||
    typeof value.hasTag !== 'function' ||
    typeof value.matches !== 'function'
  )
    throw invalidArgument(fn, name, 'an actor snapshot (from `getSnapshot()`)')
}

/** Throws `INVALID_CONFIG` unless `value` is an actor logic (a state machine, a `fromPromise`…). */
export function requireLogic(value: unknown, fn: string, name: string): void {
  if (
    !isObject(value) ||
    typeof value.transition !== 'function' ||
    typeof value.getInitialSnapshot !== 'function'
  )
    throw invalidArgument(fn, name, 'an actor logic (a machine from `setup().createMachine`)')
}

/** Throws `INVALID_CONFIG` unless `value` is a state machine (has a `root` state node). */
export function requireMachine(value: unknown, fn: string, name: string): void {
  requireLogic(value, fn, name)
  const machine = value as Record<string, unknown>
  if (!isObject(machine.root) || !isObject(machine.implementations) || !isObject(machine.config))
    throw invalidArgument(fn, name, 'a state machine')
}

/**
 * Throws `INVALID_CONFIG` unless `options` is an object whose `inspect` (when given) is a function
 * or an observer object.
 */
export function requireInspectionOptions(options: unknown, fn: string): void {
  requireObject(options, fn, 'options')
  const inspect = options.inspect
  if (inspect !== undefined && typeof inspect !== 'function' && !isObject(inspect))
    throw invalidArgument(fn, 'options.inspect', 'a function or an observer')
}

/**
 * Throws `INVALID_CONFIG` unless `value` is a snapshot or a persisted snapshot: an object with a
 * `status` string, a `value`, a `context` object and (when present) a `children` object — what
 * `createActor(…, { snapshot })` restores from. Whether it fits the machine is `checkRestorable`'s.
 */
export function requireSnapshotLike(value: unknown, fn: string, name = 'snapshot'): void {
  if (
    !isObject(value) ||
    typeof value.status !== 'string' ||
    !(typeof value.value === 'string' || isObject(value.value)) ||
    !isObject(value.context) ||
    (value.children !== undefined && !isObject(value.children))
  )
    throw invalidArgument(fn, name, 'a persisted snapshot (from `getPersistedSnapshot()`)')
}

/**
 * Throws `INVALID_CONFIG` unless `value` is an object whose `methods` (space-separated names) are
 * functions.
 */
export function requireMethods(value: unknown, fn: string, name: string, methods: string): void {
  if (!isObject(value) || methods.split(' ').some((key) => typeof value[key] !== 'function'))
    throw invalidArgument(fn, name, `an object with ${methods}`)
}
