import { invalidArgument, isObject } from '../../src/errors/arguments'

/**
 * Throws `INVALID_CONFIG` naming `field` unless `value` looks like an actor snapshot: an object with
 * a `context` object, a `status` string, a `children` object and `hasTag` / `matches` functions.
 */
export function requireSnapshot(value: unknown, field: string): void {
  if (
    !isObject(value) ||
    !isObject(value.context) ||
    typeof value.status !== 'string' ||
    !isObject(value.children) ||
    typeof value.hasTag !== 'function' ||
    typeof value.matches !== 'function'
  )
    throw invalidArgument(field, 'must be an actor snapshot (from `getSnapshot()`)')
}
