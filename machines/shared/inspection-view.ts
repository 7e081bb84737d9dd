import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import type { AnyActorRef, InspectionEvent } from 'xstate'

/** How an inspection view hides secrets. */
export interface InspectionRedaction {
  /** Every string the inspector sees goes through this (the `Client`: registered secrets replaced). */
  string(value: string): string
  /** Whether the value under `key` is hidden whole (the standalone factories, which know no values). */
  hides?(key: string, value: unknown): boolean
  /** The marker that replaces a hidden value. */
  marker: string
}

/** An actor ref as inspection events show it: its ids, never its internals (logic, system, mailbox). */
export interface InspectedRef {
  id: string
  sessionId: string
  systemId?: string
}

const MAX_DEPTH = 12

/** The most an inspection event may weigh as JSON (issue 27: whatever the message size). */
export const MAX_INSPECTION_EVENT_BYTES = 16 * 1024
/** Longer strings show as their summary (`summarise`); a second, tighter pass for a heavy event. */
const MAX_STRING = 1024
const TIGHT_STRING = 96
/** Longer arrays show their first items and a count of the rest. */
const MAX_ITEMS = 64

/**
 * A long string as the inspector sees it: its length and the start of its SHA-256 (after
 * redaction, so no secret's hash), e.g. `[string: 100000 chars, sha256 3f2a…]`.
 */
export function summarise(value: string): string {
  const hash = bytesToHex(sha256(utf8ToBytes(value))).slice(0, 16)
  return `[string: ${value.length} chars, sha256 ${hash}]`
}

/** How long a string may be shown whole in this pass. */
interface Limits {
  string: number
}

const isActorRef = (value: object): value is AnyActorRef =>
  typeof (value as { send?: unknown }).send === 'function' &&
  typeof (value as { getSnapshot?: unknown }).getSnapshot === 'function' &&
  typeof (value as { sessionId?: unknown }).sessionId === 'string'

/** Shows `value` as plain, JSON-safe data with secrets hidden and actor refs as their ids. */
function walk(
  value: unknown,
  redaction: InspectionRedaction,
  depth: number,
  limits: Limits = { string: MAX_STRING },
): unknown {
  if (typeof value === 'string') {
    const shown = redaction.string(value)
    return shown.length > limits.string ? summarise(shown) : shown
  }
  if (typeof value === 'function') return undefined
  if (typeof value === 'bigint') return value.toString()
  if (value === null || typeof value !== 'object') return value
  if (depth > MAX_DEPTH) return '[…]'
  const next = (item: unknown) => walk(item, redaction, depth + 1, limits)
  if (isActorRef(value)) return refView(value, redaction)
  // Machine snapshots and transitions say themselves what they are as data.
  const toJSON = (value as { toJSON?: unknown }).toJSON
  if (typeof toJSON === 'function') return next(toJSON.call(value))
  if (Array.isArray(value))
    return value.length > MAX_ITEMS
      ? [...value.slice(0, MAX_ITEMS).map(next), `[… ${value.length - MAX_ITEMS} more items]`]
      : value.map(next)
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer)
    return `[${value.byteLength} bytes]`
  if (value instanceof Set) return [...value].map(next)
  if (value instanceof Map) return [...value].map(next)
  const proto = Object.getPrototypeOf(value)
  const error = value instanceof Error
  if (!error && proto !== Object.prototype && proto !== null)
    return `[${(proto?.constructor as { name?: string } | undefined)?.name ?? 'object'}]`
  const out: Record<string, unknown> = {}
  if (error) {
    out.name = value.name
    out.message = redaction.string(value.message)
  }
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'function') continue
    out[key] = redaction.hides?.(key, item) ? redaction.marker : next(item)
  }
  return out
}

/**
 * `{ id, sessionId, systemId? }` for an actor ref; an inspector that reads further finds, not
 * enumerated, `_parent` (the same view of the parent), `logic.config` (the machine's definition,
 * which `@statelyai/inspect` draws) and `getSnapshot()` (the snapshot, shown as events show it).
 */
function refView(ref: AnyActorRef, redaction: InspectionRedaction): InspectedRef {
  const inner = ref as AnyActorRef & {
    systemId?: string
    _parent?: AnyActorRef
    logic?: { config?: unknown }
  }
  const view: InspectedRef = { id: ref.id, sessionId: ref.sessionId }
  if (typeof inner.systemId === 'string') view.systemId = inner.systemId
  Object.defineProperties(view, {
    _parent: {
      get: () => (inner._parent ? refView(inner._parent, redaction) : undefined),
    },
    logic: { value: { config: inner.logic?.config } },
    getSnapshot: { value: () => walk(ref.getSnapshot(), redaction, 0) },
  })
  return view
}

/**
 * An inspection event as an inspector may see it: plain data, every string through `redaction`,
 * actor refs (`actorRef`, `sourceRef`, a snapshot's `children`, refs inside events and context)
 * as `{ id, sessionId, systemId? }`, machine snapshots and microstep transitions as their JSON.
 */
export function inspectionView(
  event: InspectionEvent,
  redaction: InspectionRedaction,
): InspectionEvent {
  const view = (limits: Limits) => {
    const out: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(event))
      out[key] =
        (key === 'actorRef' || key === 'sourceRef') && value !== null && typeof value === 'object'
          ? refView(value as AnyActorRef, redaction)
          : walk(value, redaction, 0, limits)
    return out
  }
  // Bounded whatever the app signs or reads: long strings are summarised, and an event still over
  // the bound is shown again with every string past a few words summarised.
  let out = view({ string: MAX_STRING })
  if (heavierThan(out, MAX_INSPECTION_EVENT_BYTES)) out = view({ string: TIGHT_STRING })
  return out as unknown as InspectionEvent
}

/** Whether `value` as UTF-8 JSON (what an inspector ships) weighs more than `max` bytes; never throws. */
function heavierThan(value: unknown, max: number): boolean {
  let json: string
  try {
    json = JSON.stringify(value) ?? ''
  } catch {
    return true
  }
  // A UTF-16 code unit is 1 to 3 bytes of UTF-8: the length alone decides most events, unencoded.
  if (json.length > max) return true
  if (json.length * 3 <= max) return false
  return utf8ToBytes(json).length > max
}
