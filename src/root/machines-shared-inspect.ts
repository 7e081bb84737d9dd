export { createSafeInspector, sanitizeInspectionEvent } from '../../machines/shared/inspect'
