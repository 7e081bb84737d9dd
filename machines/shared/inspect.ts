import type { InspectionEvent, Observer } from 'xstate'
import { invalidArgument, isObject } from '../../src/errors/arguments'
import { createLogger, REDACTED, redact } from '../../src/logging'
import { createGuardReport, guarded } from './guard'
import { type InspectionRedaction, inspectionView } from './inspection-view'

/** What `createActor(…, { inspect })` accepts: a function or an observer of inspection events. */
export type InspectOption = Observer<InspectionEvent> | ((inspectionEvent: InspectionEvent) => void)

/**
 * Keys whose string (or bytes) value is a secret: `sessionToken`, `signature`, `txSignature`,
 * `symKeyP`, `privateKey`, a universal-link session's `nonce` … Anchored at the end and for strings only, so `timeouts.signatureMs`,
 * `tokenAddress`, a `signatures` count or `signature: null` show as they are.
 */
const SECRET_KEY = /(?:token|secret|signature|symkey\w*|privatekey|password|authorization|nonce)$/i

const byKey: InspectionRedaction = {
  string: (value) => redact(value) as string,
  hides: (key, value) =>
    SECRET_KEY.test(key) && (typeof value === 'string' || ArrayBuffer.isView(value)),
  marker: REDACTED,
}

/**
 * A copy of an inspection event safe to hand to an inspector, for actors that know no secret values
 * (the standalone factories): the string under any key named like a token, secret, signature or
 * key is replaced by `[redacted]`, wherever it sits (the event, snapshots, outputs, action params,
 * the snapshot read through `actorRef.getSnapshot()`); actor refs show as `{ id, sessionId,
 * systemId? }`, never their internals.
 * @throws `INVALID_CONFIG` when `inspectionEvent` is not an object.
 */
export function sanitizeInspectionEvent(inspectionEvent: InspectionEvent): InspectionEvent {
  if (!isObject(inspectionEvent))
    throw invalidArgument(
      'sanitizeInspectionEvent: inspectionEvent',
      'must be an inspection event object',
    )
  return inspectionView(inspectionEvent, byKey)
}

/**
 * Wraps an inspector (`createBrowserInspector().inspect`, a function, any observer) so it only ever
 * sees sanitised events, and what it throws (or a promise it rejects) is logged once and dropped:
 * the inspected actor never sees it. The factories of this package apply it to their `inspect`
 * option by default.
 */
export function createSafeInspector(
  inspect: InspectOption,
): (inspectionEvent: InspectionEvent) => void {
  const report = createGuardReport((message, data) => createLogger('client').warn(message, data))
  return (inspectionEvent) =>
    guarded(
      report,
      'the inspector',
      () => {
        const safe = sanitizeInspectionEvent(inspectionEvent)
        return typeof inspect === 'function' ? inspect(safe) : inspect.next?.(safe)
      },
      undefined,
    )
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
