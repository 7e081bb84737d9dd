import type { AnyActorRef, InspectionEvent, Observer } from 'xstate'
import { REDACTED, redact } from '../../src/logging'

/** What `createActor(…, { inspect })` accepts: a function or an observer of inspection events. */
export type InspectOption = Observer<InspectionEvent> | ((inspectionEvent: InspectionEvent) => void)

const SECRET_KEY = /token|secret|signature|symkey|privatekey|password|authorization/i

function scrub(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return redact(value)
  if (depth > 8) return '[…]'
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1))
  if (value instanceof Error || value instanceof Uint8Array) return redact(value)
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) return redact(value)
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) ? REDACTED : scrub(item, depth + 1)
  }
  return out
}

function sanitizeSnapshot<T>(snapshot: T): T {
  if (snapshot === null || typeof snapshot !== 'object') return snapshot
  const s = snapshot as Record<string, unknown>
  const copy: Record<string, unknown> = { ...s }
  if ('context' in s) copy.context = scrub(s.context)
  if ('output' in s) copy.output = scrub(s.output)
  if ('error' in s) copy.error = scrub(s.error)
  if ('input' in s) copy.input = scrub(s.input)
  return copy as T
}

function sanitizeActorRef(actorRef: AnyActorRef | undefined): AnyActorRef | undefined {
  if (actorRef === undefined || actorRef === null) return actorRef
  // Inspectors (e.g. @statelyai/inspect) read `actorRef.getSnapshot()` for `@xstate.actor`.
  return Object.create(actorRef, {
    getSnapshot: { value: () => sanitizeSnapshot(actorRef.getSnapshot()) },
  })
}

/**
 * A copy of an inspection event safe to hand to an inspector: session tokens, signatures, symmetric
 * keys (any key named like a token, secret, signature or key) are replaced by `[redacted]` in the
 * event, the snapshot's context, output and error, and in action params.
 */
export function sanitizeInspectionEvent(inspectionEvent: InspectionEvent): InspectionEvent {
  const e = inspectionEvent as InspectionEvent & Record<string, unknown>
  const copy: Record<string, unknown> = {
    ...e,
    actorRef: sanitizeActorRef(e.actorRef as AnyActorRef),
  }
  if ('event' in e) copy.event = scrub(e.event)
  if ('snapshot' in e) copy.snapshot = sanitizeSnapshot(e.snapshot)
  if ('action' in e && e.action && typeof e.action === 'object') {
    const action = e.action as { type: unknown; params?: unknown }
    copy.action = { ...action, params: scrub(action.params) }
  }
  return copy as unknown as InspectionEvent
}

/**
 * Wraps an inspector (`createBrowserInspector().inspect`, a function, any observer) so it only ever
 * sees sanitised events. The factories of this package apply it to their `inspect` option by default.
 */
export function createSafeInspector(
  inspect: InspectOption,
): (inspectionEvent: InspectionEvent) => void {
  return (inspectionEvent) => {
    const safe = sanitizeInspectionEvent(inspectionEvent)
    if (typeof inspect === 'function') inspect(safe)
    else inspect.next?.(safe)
  }
}

/** Inspection settings every factory of this package accepts. */
export interface InspectionOptions {
  /** An inspector: `createBrowserInspector().inspect`, an observer, or a function. */
  inspect?: InspectOption
  /** Default `true`: the inspector only sees sanitised events. `false` for local debugging only. */
  sanitizeInspection?: boolean
}

/** The `inspect` option for `createActor`, sanitised unless `sanitizeInspection` is `false`. */
export function inspectorOptions(options: InspectionOptions): { inspect?: InspectOption } {
  if (options.inspect === undefined) return {}
  return {
    inspect:
      options.sanitizeInspection === false ? options.inspect : createSafeInspector(options.inspect),
  }
}
