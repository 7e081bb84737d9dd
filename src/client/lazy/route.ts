// The chunk the client loads when it picks a connector (selectWallet, connect, a reconnect), by
// dynamic import: the wallet registry, the connector kinds, the connector loader and the choice of
// a connector stay out of the `Client` entry until a wallet is chosen (issue 27, issue 30 item 7:
// the Client budget).
import type { LoadConnectorInput, LoadedConnector } from '../../../machines/client/client.types'
import { connectorKindForWallet } from '../../connectors/connector-kind'
import { loadConnectorForWallet } from '../../connectors/load-connector'
import { isWalletInjected } from '../../connectors/presence'
import type { IWalletConnector } from '../../connectors/types'
import type { WalletConnectConnectorOptions } from '../../connectors/walletconnect'
import { resolveWalletInfo, walletIdForConnectorId } from '../../registry'
import { SOLANA_MAINNET_CHAIN_ID } from '../../registry/chain-ids'
import type { ChainNamespace } from '../../registry/types'
import type { ClientLoaders } from '../environment'

/** The custom connector for `input`: by a reconnect's connector id, else by wallet, else the first. */
function customConnector(
  loaders: ClientLoaders,
  input: LoadConnectorInput,
): IWalletConnector | undefined {
  const connectors = loaders.options.connectors ?? []
  if (input.connectorId !== null) return connectors.find((c) => c.id === input.connectorId)
  if (input.walletId === null) return connectors[0]
  return connectors.find(
    (c) => c.id === input.walletId || walletIdForConnectorId(c.id) === input.walletId,
  )
}

/** The root's `loadConnector`: builds the connector for `input` and makes it the current one. */
export async function loadConnector(
  loaders: ClientLoaders,
  input: LoadConnectorInput,
): Promise<LoadedConnector> {
  const { options } = loaders
  const custom =
    loaders.phantomLinks.get(input.connectorId ?? '') ?? customConnector(loaders, input)
  let connector: Promise<IWalletConnector>
  const walletConnect = options.walletConnect !== undefined
  if (custom) connector = Promise.resolve(custom)
  else if (walletConnect && input.connectorId === 'walletconnect' && input.namespace !== null) {
    // A remembered WalletConnect session comes back over WalletConnect, extension or not.
    connector = walletConnectConnector(loaders, input.namespace)
  } else if (input.walletId === null || input.namespace === null) {
    connector = import('../../connectors/injected').then((m) => new m.InjectedConnector())
  } else {
    const info = resolveWalletInfo(input.walletId)
    const namespace = input.namespace
    const mobile = loaders.isMobile()
    // A wallet whose provider is in the page (its in-app browser on a phone) takes that path.
    const injected = isWalletInjected(info, namespace)
    const kind = connectorKindForWallet(info, namespace, mobile, injected, walletConnect)
    if (kind === 'universal-link') {
      await loaders.loadLink()
      const { linkConnector } = await import('./link')
      loaders.connector = linkConnector(loaders.host.client(), loaders.host.root(), info.id)
      return {
        kind: 'universal-link',
        connectorId: info.id,
        walletId: info.id,
        chainId: options.solanaChainId ?? SOLANA_MAINNET_CHAIN_ID,
        pollIntervalMs: options.universalLink?.pollIntervalMs ?? null,
      }
    }
    const { metaMaskSdk, coinbaseSdk, solanaChainId } = options
    connector = loadConnectorForWallet(info, namespace, {
      mobile,
      injected,
      eip6963TimeoutMs: input.discoveryMs,
      ...(metaMaskSdk ? { metaMaskSdk } : {}),
      ...(coinbaseSdk ? { coinbaseSdk } : {}),
      ...(solanaChainId ? { solanaChainId } : {}),
      phantomLink: (wallet) => loaders.phantomLinkConnector(wallet.id),
      ...(walletConnect ? { walletConnect: () => walletConnectConnector(loaders, namespace) } : {}),
    })
  }
  // The connect and sign machines load beside the connector (both are dynamic imports).
  const [loaded] = await Promise.all([connector, loadWalletMachines(loaders)])
  loaders.connector = loaded
  return {
    kind: 'wallet',
    connectorId: loaded.id,
    walletId: walletIdForConnectorId(loaded.id) ?? input.walletId,
    chainId: null,
  }
}

/** The WalletConnect connector for `namespace` (one per namespace, shared by every wallet): in a chunk. */
function walletConnectConnector(
  loaders: ClientLoaders,
  namespace: ChainNamespace,
): Promise<IWalletConnector> {
  let connector = loaders.walletConnects.get(namespace)
  if (!connector) {
    const option = loaders.options.walletConnect as WalletConnectConnectorOptions
    connector = import('./walletconnect').then((m) =>
      m.createClientWalletConnect(option, namespace),
    )
    // A malformed option is reported again at the next call, not kept.
    connector.catch(() => loaders.walletConnects.delete(namespace))
    loaders.walletConnects.set(namespace, connector)
  }
  return connector
}

/** Loads the `connect` and `sign` machines once (a dynamic import), bound to the current connector. */
async function loadWalletMachines(loaders: ClientLoaders): Promise<void> {
  if (loaders.connection.loaded()) return
  const { createWalletMachines } = await import('./wallet')
  const machines = createWalletMachines({
    connector: () => loaders.connector,
    onSecret: (value) => loaders.secrets.add(value),
  })
  loaders.connection.set(machines.connection)
  loaders.signing.set(machines.sign)
}
