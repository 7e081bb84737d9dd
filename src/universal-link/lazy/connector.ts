// The chunk the client loads for the universal-link flow, by dynamic import: one module, so the
// flow's code arrives as one chunk.
export { GenericWalletSessionClient } from '../../session/client'
export { UniversalLinkConnector } from '../face/connector'
export { createClientLink } from './client-link'
