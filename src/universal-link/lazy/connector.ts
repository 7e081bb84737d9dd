// The chunk the client loads for the universal-link flow, by dynamic import (see src/connectors/lazy/).

export { machineFingerprint } from '../../../machines/client/client.fingerprint'
export { checkRestorable, persistWhileResumable } from '../../../machines/client/client.persistence'
export { createUniversalLinkActors } from '../../../machines/universal-link/universal-link.actors'
export { universalLinkMachine } from '../../../machines/universal-link/universal-link.machine'
export { GenericWalletSessionClient } from '../../session/client'
export { buildUniversalLinkUrl } from '../build-universal-link-url'
export { UniversalLinkConnector } from '../connector'
