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
        // Events raised while the queue drains join it, so the order holds.
        for (let event = waiting.shift(); event; event = waiting.shift()) loaded(event)
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
