// The chunk the client loads when an app inspects it, by dynamic import: redaction by key and by
// value stays out of the `Client` entry for apps that pass no `inspect`.
export { createRedactingInspector } from '../../../machines/client/client.redact'
