import type { InspectionEvent } from 'xstate'
import type { InspectOption } from '../shared/inspect'
import { inspectionView } from '../shared/inspection-view'
import type { SecretRegistry } from '../shared/secret-registry'

/**
 * Wraps an inspector so it sees no secret and no actor internals: redaction **by value** — any
 * string that equals or contains a registered secret (a session token, a signature, a pairing URI
 * or key) is `[redacted]` wherever it sits (events, snapshots, outputs, action params, the
 * snapshots read through the refs it is handed); everything else shows as it is, whatever its key
 * (`timeouts.signatureMs`, `signatures`, `signature: null`). Actor refs show as `{ id, sessionId,
 * systemId? }` (see `inspectionView`).
 */
export function createRedactingInspector(
  inspect: InspectOption,
  secrets: SecretRegistry,
): (event: InspectionEvent) => void {
  const redaction = { string: (value: string) => secrets.redact(value), marker: '[redacted]' }
  return (inspectionEvent) => {
    const event = inspectionView(inspectionEvent, redaction)
    if (typeof inspect === 'function') inspect(event)
    else inspect.next?.(event)
  }
}
