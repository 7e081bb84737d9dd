/**
 * The optional peers of `scope-connect/wagmi` (`@wagmi/core`, and `viem` which it depends on),
 * loaded by `import()` on the connector's first call: the entry itself loads without them, and a
 * missing peer is an `AppError` (`loadWagmiPeer`), not a failed module load.
 */
export { ChainNotConfiguredError, ConnectorNotConnectedError } from '@wagmi/core'
export { getAddress, http, SwitchChainError, UserRejectedRequestError } from 'viem'
