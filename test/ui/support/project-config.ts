import type { ConnectConfig } from '../../../src/config'

/** Ethereum mainnet as a project's config lists it. */
export const ETHEREUM_NETWORK: ConnectConfig['networks'][number] = {
  networkId: 'eip155:1',
  namespace: 'eip155',
  name: 'Ethereum',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  testnet: false,
}

/** A project on Ethereum with `wallets` (default: MetaMask, Rainbow and Zerion). */
export function projectConfig(
  wallets: ConnectConfig['wallets'] = [
    { walletId: 'metamask', name: 'MetaMask', namespaces: ['eip155'] },
    { walletId: 'rainbow', name: 'Rainbow', namespaces: ['eip155'] },
    { walletId: 'zerion', name: 'Zerion', namespaces: ['eip155'] },
  ],
): ConnectConfig {
  return { projectId: 'p', name: 'Test', networks: [ETHEREUM_NETWORK], wallets }
}
