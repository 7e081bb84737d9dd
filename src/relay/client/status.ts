import type { AppError } from '../../errors/app-error'

/**
 * `connecting`: first connection; `online`: connected and every topic subscribed;
 * `reconnecting`: lost, retrying with backoff; `offline`: gave up (attempts exhausted, token
 * refused) or closed. `reconnect()` leaves `offline`.
 */
export type RelayStatus = 'idle' | 'connecting' | 'online' | 'reconnecting' | 'offline'

/** A change of the relay connection's status, as `onStatus` listeners get it. */
export interface RelayStatusChange {
  status: RelayStatus
  /** Why the client is reconnecting or offline. */
  error?: AppError
  /** The reconnect attempt about to run (reconnecting). */
  attempt?: number
}
