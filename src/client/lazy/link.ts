// The chunk the client loads for the universal-link flow, by dynamic import: the flow's machine,
// its session client and token vault, and their wiring to the client, as one chunk.
import { createMemoryTokenVault } from '../../../machines/session-polling/session-polling.actors'
import { SOLANA_MAINNET_CHAIN_ID } from '../../registry/chain-ids'
import type { ClientLink } from '../../universal-link/lazy/client-link'
import { createClientLink } from '../../universal-link/lazy/connector'
import type { ClientLoaders } from '../environment'

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
    walletOpened: (url) => loaders.host.actor().send({ type: 'WALLET_OPENED', url }),
  })
  loaders.link.set(part.machine)
  loaders.linkPart = part
  loaders.host.linkLoaded()
  return part
}
