/**
 * Freezes a JSON-like value and everything it holds, so the built-in registry cannot be changed by
 * a caller that got a reference to it. Returns the same value, typed as read-only.
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
    Object.freeze(value)
  }
  return value
}
