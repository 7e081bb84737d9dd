export {
  type ConnectConfig,
  type ConnectConfigClient,
  type ConnectConfigClientOptions,
  type ConnectConfigNetwork,
  type ConnectConfigWallet,
  createConnectConfigClient,
} from '../config'
