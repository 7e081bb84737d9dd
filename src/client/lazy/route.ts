// The chunk the client loads when it picks a connector (selectWallet, connect, a reconnect), by
// dynamic import: the wallet registry, the connector kinds and the connector loader stay out of
// the `Client` entry until a wallet is chosen (issue 27: the Client budget).
export { connectorKindForWallet } from '../../connectors/connector-kind'
export { loadConnectorForWallet } from '../../connectors/load-connector'
export { isWalletInjected } from '../../connectors/presence'
export { resolveWalletInfo, walletIdForConnectorId } from '../../registry'
