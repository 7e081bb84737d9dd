// The chunk the client loads on its first config or balance read, by dynamic import: the HTTP
// client and the response schemas stay out of the `Client` entry until a read needs them.
export { createBalanceReader } from '../../balance'
export { createConnectConfigClient } from '../../config'
