/**
 * What stands in for a secret wherever one is hidden (logs, inspector events). A module of its own so
 * the `Client` entry, whose secret registry needs only this, does not reach the logger.
 */
export const REDACTED = '[redacted]'
