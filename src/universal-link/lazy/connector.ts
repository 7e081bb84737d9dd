// The chunk the client loads for the universal-link flow, by dynamic import (see src/connectors/lazy/).
export { GenericWalletSessionClient } from '../../session/client'
export { UniversalLinkConnector } from '../connector'
export { createClientLink } from './client-link'
