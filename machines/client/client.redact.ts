import type { AnyActorRef, InspectionEvent } from 'xstate'
import { type InspectOption, sanitizeInspectionEvent } from '../shared/inspect'
import type { SecretRegistry } from '../shared/secret-registry'

const isActorRef = (value: object): value is AnyActorRef =>
  typeof (value as { getSnapshot?: unknown }).getSnapshot === 'function' &&
  typeof (value as { send?: unknown }).send === 'function'

/** A deep copy of plain data with secrets replaced; actor refs are wrapped so their snapshots are too. */
function scrubValue(value: unknown, secrets: SecretRegistry, depth: number): unknown {
  if (typeof value === 'string') return secrets.redact(value)
  if (value === null || typeof value !== 'object') return value
  if (depth > 12) return '[…]'
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, secrets, depth + 1))
  if (isActorRef(value)) return wrapRef(value, secrets)
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) return value
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value))
    out[key] = typeof item === 'function' ? item : scrubValue(item, secrets, depth + 1)
  return out
}

function wrapRef(ref: AnyActorRef, secrets: SecretRegistry): AnyActorRef {
  return Object.create(ref, {
    getSnapshot: {
      value: () => {
        const snapshot = ref.getSnapshot()
        const safe = sanitizeInspectionEvent({
          type: '@xstate.snapshot',
          actorRef: ref,
          rootId: ref.sessionId,
          snapshot,
          event: { type: '' },
        } as InspectionEvent) as InspectionEvent & { snapshot: unknown }
        return scrubValue(safe.snapshot, secrets, 0)
      },
    },
  })
}

/**
 * Wraps an inspector so it sees no secret: first redaction by key (`sanitizeInspectionEvent`), then
 * by value — any string that contains a registered secret (a session token, a signature), wherever
 * it sits (events, snapshots, outputs, action params, the snapshots of the actor refs it is handed).
 */
export function createRedactingInspector(
  inspect: InspectOption,
  secrets: SecretRegistry,
): (event: InspectionEvent) => void {
  return (inspectionEvent) => {
    const byKey = sanitizeInspectionEvent(inspectionEvent) as InspectionEvent &
      Record<string, unknown>
    const safe: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(byKey)) {
      safe[key] =
        value !== null && typeof value === 'object' && isActorRef(value)
          ? wrapRef(value, secrets)
          : scrubValue(value, secrets, 0)
    }
    const event = safe as unknown as InspectionEvent
    if (typeof inspect === 'function') inspect(event)
    else inspect.next?.(event)
  }
}
