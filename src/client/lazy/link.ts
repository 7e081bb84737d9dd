// The chunk the client loads for the universal-link flow, by dynamic import: the flow's machine,
// its session client and token vault, and their wiring to the client, as one chunk.
import { createMemoryTokenVault } from '../../../machines/session-polling/session-polling.actors'
import type { IWalletConnector, RequestArgs } from '../../connectors/types'
import { SOLANA_MAINNET_CHAIN_ID } from '../../registry/chain-ids'
import type { ClientLink } from '../../universal-link/lazy/client-link'
import { createClientLink } from '../../universal-link/lazy/connector'
import type { ClientLoaders } from '../environment'
import type { RootHost } from '../host'
import type { ClientFace } from '../parts'

/** Builds the client's universal-link part (its machine in the root's place) and keeps it. */
export function loadClientLink(loaders: ClientLoaders): ClientLink {
  if (loaders.linkPart) return loaders.linkPart
  loaders.vault ??= createMemoryTokenVault()
  const { baseUrl, appKey, fetchImpl, universalLink: link = {} } = loaders.options
  const part = createClientLink({
    baseUrl,
    appKey,
    ...(fetchImpl ? { fetchImpl } : {}),
    ...link,
    chainId: loaders.options.solanaChainId ?? SOLANA_MAINNET_CHAIN_ID,
    vault: loaders.vault,
    secrets: loaders.secrets,
    rootMachine: (machine) => loaders.rootMachine({ universalLink: machine }),
    // The root may be mid-step (its own transition asked for the signature): its turn comes first.
    // (A subscription, not xstate's `waitFor`, which would join the entry's shared xstate chunk.)
    walletOpened: (url) =>
      new Promise<void>((resolve) => {
        const { actor } = loaders.host.root()
        const subscription = actor.subscribe((snapshot) => {
          if (snapshot.context.walletUrl !== url) return
          subscription.unsubscribe()
          resolve()
        })
        actor.send({ type: 'WALLET_OPENED', url })
      }),
  })
  loaders.link.set(part.machine)
  loaders.linkPart = part
  loaders.host.linkLoaded()
  return part
}

const LINK_SIGN = { method: 'signMessage', payload: null } as const

/** The connector object `selectWallet` returns for a universal-link wallet: it drives the client. */
export function linkConnector(
  client: ClientFace,
  host: RootHost,
  walletId: string,
): IWalletConnector {
  return {
    id: walletId,
    isAvailable: () => true,
    connect: () => client.connect(),
    getAccounts: () => client.getConnection()?.accounts ?? [],
    disconnect: () => client.disconnect(),
    request: async <T>(args: RequestArgs): Promise<T> => {
      if (args.method === 'solana_signTransaction') {
        const transaction = (args.params as { transaction?: unknown } | undefined)?.transaction
        return client.signTransaction<T>(typeof transaction === 'string' ? transaction : '')
      }
      // Over a universal link the wallet signs the session's envelope: no message of the app's.
      host.walletConnection()
      const request = { method: 'solana_signMessage', params: { message: '' } }
      return { signature: await host.sign({ request, link: LINK_SIGN }) } as T
    },
  }
}
