/**
 * The app's own code the `Client` calls — its inspector, its stores, its view listeners — behind a
 * guard: a synchronous throw or a rejected promise is caught, reported once per source through
 * `warn` (the logger's), and dropped. The root actor, the inspector's queue and the caller never
 * see it. `warn` comes from the caller: the `Client` loads the logger with its first report (a
 * dynamic import, which its entry can afford and this module, reached from the root entry, cannot:
 * an `import()` makes esbuild keep every module the root index names, evanw/esbuild#1110).
 */

/** Reports a failure of the app's code `source` (`the inspector`, `connectionStore.save`) once. */
export type GuardReport = (source: string, error: unknown) => void

/** A reporter that tells `warn` once per source (later failures of that source are dropped). */
export function createGuardReport(
  warn: (message: string, data: { error: unknown }) => unknown,
): GuardReport {
  const reported = new Set<string>()
  return (source, error) => {
    if (reported.has(source)) return
    reported.add(source)
    try {
      Promise.resolve(warn(`${source} threw; the Client ignores it`, { error })).catch(() => {})
    } catch {
      // The app's log sink threw as well (or the logger did not load): nothing left to tell.
    }
  }
}

/** Calls `run`; a throw or a rejected promise is reported as `source` and `fallback` returned. */
export function guarded<T>(report: GuardReport, source: string, run: () => T, fallback: T): T {
  try {
    const value = run()
    if (isThenable(value)) {
      // A store or inspector that answers with a promise: its rejection is the app's, not ours.
      value.then(undefined, (error: unknown) => report(source, error))
      return fallback
    }
    return value
  } catch (error) {
    report(source, error)
    return fallback
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  )
}

/** A store (`save`, `load`, `clear`) whose every call is guarded; a failed `load` finds nothing. */
export function guardStore<
  T extends {
    save(value: never): void
    load(): unknown
    clear(): void
    discarded?(): string | null
  },
>(store: T, name: string, report: GuardReport): T {
  const discarded = store.discarded
  return {
    save: (value: never) => guarded(report, `${name}.save`, () => store.save(value), undefined),
    load: () => guarded(report, `${name}.load`, () => store.load(), null),
    clear: () => guarded(report, `${name}.clear`, () => store.clear(), undefined),
    ...(typeof discarded === 'function'
      ? {
          discarded: () =>
            guarded(
              report,
              `${name}.discarded`,
              () => {
                const reason = discarded.call(store)
                return typeof reason === 'string' ? reason.slice(0, 500) : null
              },
              null,
            ),
        }
      : {}),
  } as T
}
