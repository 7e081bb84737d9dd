import type { InspectionEvent } from 'xstate'

/**
 * An inspector that stands in for one loaded later (by dynamic import), so the redaction code
 * loads only when an app inspects: events wait, in order, until `load` gives the real inspector,
 * then go to it; none is dropped and none reaches anything else. A failed load is retried with
 * the next event.
 */
export function createDeferredInspector(
  load: () => Promise<(event: InspectionEvent) => void>,
): (event: InspectionEvent) => void {
  const waiting: InspectionEvent[] = []
  let inspector: ((event: InspectionEvent) => void) | null = null
  let loading = false
  const start = () => {
    loading = true
    load().then(
      (loaded) => {
        // Events raised while the queue drains join it, so the order holds. A throw of the
        // inspector is its own: the queue drains on (`loaded` is guarded by the Client, this is
        // the last line), so no event waits forever.
        for (let event = waiting.shift(); event; event = waiting.shift()) {
          try {
            loaded(event)
          } catch {
            // dropped: see above
          }
        }
        inspector = loaded
      },
      () => {
        loading = false
      },
    )
  }
  return (event) => {
    if (inspector) inspector(event)
    else {
      waiting.push(event)
      if (!loading) start()
    }
  }
}
