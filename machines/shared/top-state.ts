/** The top-level state names of a chart's state value (`SnapshotFrom<Machine>['value']`). */
export type TopState<TValue> = TValue extends string ? TValue : keyof TValue & string

/**
 * The top-level state a child's snapshot is in, typed by its chart: a nested state gives its
 * top-level state, where `String(value)` would give `[object Object]` and match nothing.
 */
export const topState = <TValue extends string | object>(value: TValue): TopState<TValue> =>
  (typeof value === 'string' ? value : Object.keys(value)[0]) as TopState<TValue>
