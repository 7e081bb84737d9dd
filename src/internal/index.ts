/**
 * `scope-connect/internal`: what the library wires its machines with, exported for tools and
 * tests that build on the same parts (the test kit's traversals, a custom host of the root
 * chart). **No semver guarantees**: any export here may change or go in a minor or patch
 * release. Apps use `scope-connect`, `scope-connect/client` and `scope-connect/machines`.
 * See docs/internal.md.
 */

// ---- the root chart's wiring --------------------------------------------------------------------
export {
  type ClientEnvironment,
  clientTimekeeping,
  createClientActors,
  createLazyLogic,
  provideClient,
} from '../../machines/client/client.actors'
export {
  describeMachineDefinition,
  machineFingerprint,
} from '../../machines/client/client.fingerprint'
export {
  checkRestorable,
  checkRestorableRecord,
  isResumableTree,
  type PersistOptions,
  persistWhileResumable,
  RESUMABLE,
  type RestoreCheck,
  type RestoreOptions,
} from '../../machines/client/client.persistence'
export { createRedactingInspector } from '../../machines/client/client.redact'
export { serializeClientSnapshot } from '../../machines/client/client.traversal'
export {
  createWalletMachines,
  type WalletEnvironment,
  type WalletMachines,
} from '../../machines/client/client.wallet'
// ---- connect --------------------------------------------------------------------------------------
export { toConnectionData, toWalletWatchEvent } from '../../machines/connect/connect.actors'
// ---- session polling ------------------------------------------------------------------------------
export {
  backoffDelay,
  intervalDelay,
  isTransientFailure,
} from '../../machines/session-polling/session-polling.logic'
// ---- shared ---------------------------------------------------------------------------------------
export { createDeferredInspector } from '../../machines/shared/deferred-inspector'
export { toAppError, toErrorData } from '../../machines/shared/error-data'
export { createSecretRegistry, type SecretRegistry } from '../../machines/shared/secret-registry'
export { walletErrorData } from '../../machines/shared/wallet-error-data'
// ---- sign -----------------------------------------------------------------------------------------
export { personalSignRequest, utf8ToHex } from '../../machines/sign/sign.requests'
// ---- transaction ----------------------------------------------------------------------------------
export { transactionTimekeeping } from '../../machines/transaction/transaction.actors'
