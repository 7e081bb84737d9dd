import { vi } from 'vitest'

/**
 * Faults of the app's own code and of the page (issue 27): the app's inspector throws or answers
 * with a rejected promise; its stores throw or reject; the wall clock jumps an hour ahead or back
 * (an NTP correction; `performance.now()` does not move); the stored record is corrupted before a
 * reload. `none` most of the time.
 */
export const APP_FAULTS = [
  'none',
  'inspectorThrows',
  'inspectorRejects',
  'storeThrows',
  'storeRejects',
  'clockAhead',
  'clockBack',
  'corruptRecord',
] as const
export type AppFault = (typeof APP_FAULTS)[number]

const HOUR = 3_600_000

/** The wall clock jumps (fake `Date` only: the fake `performance.now()` keeps its course). */
export function jumpClock(fault: AppFault): void {
  if (fault === 'clockAhead') vi.setSystemTime(Date.now() + HOUR)
  if (fault === 'clockBack') vi.setSystemTime(Date.now() - HOUR)
}

/** What the app's inspector does with an event under `fault`. */
export function inspectorFault(fault: AppFault): unknown {
  if (fault === 'inspectorThrows') throw new Error('TEST: the app inspector threw')
  if (fault === 'inspectorRejects')
    return Promise.reject(new Error('TEST: the app inspector rejected'))
  return undefined
}

/** The ways a stored record is corrupted before a reload, in turn. */
const CORRUPTIONS: Array<(record: Record<string, unknown>) => unknown> = [
  (r) => withContext(r, 'timeouts', null),
  (r) => ({ ...r, formatVersion: 99 }),
  (r) => withContext(r, 'pending', 'bogus'),
  (r) => withContext(r, 'walletUrl', 'javascript:alert(document.cookie)'),
  (r) => withContext(r, 'walletUrl', `https://x.test/${'a'.repeat(100_000)}`),
  (r) => ({ ...r, snapshot: 'not a snapshot' }),
  () => 'not a record',
]

function withContext(record: Record<string, unknown>, key: string, value: unknown): unknown {
  const copy = structuredClone(record) as { snapshot?: { context?: Record<string, unknown> } }
  if (copy.snapshot?.context) copy.snapshot.context[key] = value
  return copy
}

/**
 * A store of the app, around a recording one (the TEST DOUBLE of `localStorage`): while `mode()`
 * says so, every call throws or answers a rejected promise (and does nothing); `corruptNext()` makes
 * the next `load()` answer a corrupted copy of the record. `faulted` tells the checks that the
 * store may no longer mirror the flow (a save was lost).
 */
export function faultyStore<T>(
  inner: { save(state: T): void; load(): T | null; clear(): void },
  mode: () => AppFault,
) {
  let corrupt = false
  let turn = 0
  const state = { faulted: false }
  const failing = (): unknown => {
    const fault = mode()
    if (fault === 'storeThrows') {
      state.faulted = true
      throw new Error('TEST: the app store threw')
    }
    if (fault === 'storeRejects') {
      state.faulted = true
      return Promise.reject(new Error('TEST: the app store rejected'))
    }
    return undefined
  }
  return {
    state,
    store: {
      save(value: T) {
        const failed = failing()
        if (failed !== undefined) return failed as never
        inner.save(value)
      },
      load(): T | null {
        const failed = failing()
        if (failed !== undefined) return failed as never
        const record = inner.load()
        if (!corrupt || record === null) return record
        corrupt = false
        const corruption = CORRUPTIONS[turn++ % CORRUPTIONS.length] as (typeof CORRUPTIONS)[0]
        return corruption(record as Record<string, unknown>) as T
      },
      clear() {
        const failed = failing()
        if (failed !== undefined) return failed as never
        inner.clear()
      },
    },
    corruptNext() {
      corrupt = true
    },
  }
}
