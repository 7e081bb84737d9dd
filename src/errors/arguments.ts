import { AppError } from './app-error'

// Cheap boundary checks for public functions (issue 27, "no raw TypeError from any public method"):
// a typeof test here costs less than a schema, and the error names the argument that was wrong.
// `field` is the argument's path (`options.signal`), led by the function's name where the caller is a
// standalone factory (`createConnectActor: connector`).

/** `INVALID_CONFIG` naming the argument (or `argument.field`) and why it was refused. */
export function invalidArgument(field: string, reason: string): AppError {
  return new AppError('INVALID_CONFIG', `Invalid argument: ${field} ${reason}.`, {
    details: [{ field, reason }],
  })
}

/** True for a non-null object (an array included). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

/** True for a non-null object (or function): something whose properties can be read. */
export function isObjectLike(value: unknown): value is Record<PropertyKey, unknown> {
  return (typeof value === 'object' && value !== null) || typeof value === 'function'
}

/**
 * `value` when it is an object (or function), `{}` when it is `undefined` (an omitted options bag).
 * @throws AppError `INVALID_CONFIG` naming `field` for anything else.
 */
export function optionsObject<T extends object>(value: unknown, field: string): Partial<T> {
  if (value === undefined) return {}
  if (!isObjectLike(value)) throw invalidArgument(field, 'must be an object')
  return value as Partial<T>
}

/** Throws `INVALID_CONFIG` naming `field` unless `value` is an object (or function). */
export function requireObject(
  value: unknown,
  field: string,
): asserts value is Record<PropertyKey, unknown> {
  if (!isObjectLike(value)) throw invalidArgument(field, 'must be an object')
}

/** Throws `INVALID_CONFIG` naming `field` unless `value` is a function (or, with `optional`, undefined). */
export function requireFunction(value: unknown, field: string, optional = false): void {
  if (optional && value === undefined) return
  if (typeof value !== 'function') throw invalidArgument(field, 'must be a function')
}

/** Throws `INVALID_CONFIG` naming `field` unless `value` is a string. */
export function requireString(value: unknown, field: string): asserts value is string {
  if (typeof value !== 'string') throw invalidArgument(field, 'must be a string')
}

/** Text for any value, never throwing (a Symbol, a null-prototype object, a throwing `toString`). */
export function safeText(value: unknown): string {
  try {
    return String(value)
  } catch {
    return Object.prototype.toString.call(value)
  }
}
