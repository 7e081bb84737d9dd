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
