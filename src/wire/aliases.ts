import type { SessionResult } from './schemas'

/** The source document's `GenericSessionResult`: the backend's session result shape. */
export type GenericSessionResultWire = SessionResult
