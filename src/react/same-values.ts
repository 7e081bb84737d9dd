/**
 * True when two snapshots a hook hands to React hold the same values: the same object, or both
 * objects whose keys hold `Object.is`-equal values, arrays compared item by item (a view's
 * `accounts` is a new `[]` on every read) and nested objects key by key (its `transaction` is a
 * new object on every read too). Lets a hook return its previous object when nothing
 * changed, so `useSyncExternalStore` sees a stable snapshot and React does not render again.
 */
export function sameValues(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true
  if (!isRecord(a) || !isRecord(b)) return false
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  return keys.every((key) => key in b && sameItem(a[key], b[key]))
}

function sameItem(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true
  if (Array.isArray(a) || Array.isArray(b))
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, index) => sameItem(item, b[index]))
    )
  return isRecord(a) && isRecord(b) && sameValues(a, b)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}
