import type { FastifyInstance } from 'fastify'
import { getWalletInfo } from 'scope-connect'
import {
  API_PREFIX,
  type ConfigResponse,
  type NetworkEntry,
  type PartnerWalletEntry,
  ROUTES,
} from 'scope-connect/wire'
import { appKeyOf, requireProject } from '../auth/app-key'
import { builtInNetwork } from '../config/projects'
import type { ProjectConfig } from '../config/projects-schema'
import type { AppContext } from '../context'
import { CONFIG_CACHE } from '../http/hygiene'
import { enforceAppKeyLimits } from '../http/rate-limit'

/** The project's networks and wallets in the library's registry shapes. */
export function projectConfigBody(project: ProjectConfig): ConfigResponse {
  return {
    projectId: project.projectId,
    name: project.name,
    networks: project.networks.map(networkEntry),
    wallets: project.wallets.map((slug) => {
      const partner = project.partnerWallets?.find((p) => p.id === slug)
      if (partner !== undefined) {
        return { walletId: partner.id, name: partner.name, namespaces: partnerNamespaces(partner) }
      }
      const info = getWalletInfo(slug)
      return { walletId: info.id, name: info.name, namespaces: [...info.namespaces] }
    }),
    ...(project.partnerWallets === undefined
      ? {}
      : { partnerWallets: project.partnerWallets.map((p) => structuredClone(p)) }),
  }
}

/**
 * A network as a Client needs it: the project's fields over the built-in entry's (a chain the
 * registry lacks has its own, checked at start). The backend's `rpcUrl` / `wsUrl` never leave the
 * server (they may carry a provider key): wallets get `publicRpcUrls`, else a built-in's public ones.
 */
function networkEntry(network: ProjectConfig['networks'][number]): NetworkEntry {
  const builtIn = builtInNetwork(network.chainId)
  const namespace = network.chainId.startsWith('solana:') ? 'solana' : 'eip155'
  const rpcUrls = network.publicRpcUrls ?? builtIn?.rpcUrls
  const explorerUrl = network.explorerUrl ?? builtIn?.blockExplorerUrl
  const nativeCurrency = network.nativeCurrency ?? builtIn?.nativeCurrency
  return {
    networkId: network.chainId,
    namespace,
    name: network.name ?? builtIn?.name ?? network.chainId,
    nativeCurrency: { ...(nativeCurrency ?? { name: '', symbol: '', decimals: 18 }) },
    testnet: network.testnet ?? builtIn?.testnet ?? false,
    ...(rpcUrls && namespace === 'eip155' ? { rpcUrls: [...rpcUrls] } : {}),
    ...(explorerUrl ? { explorerUrl } : {}),
  }
}

/** A partner's namespaces: its own list, else those of its `mobile` and `relay` (the registry's rule). */
function partnerNamespaces(partner: PartnerWalletEntry): Array<'eip155' | 'solana'> {
  if (partner.namespaces !== undefined) return [...new Set(partner.namespaces)]
  return (['eip155', 'solana'] as const).filter(
    (ns) => partner.mobile?.namespaces.includes(ns) || partner.relay?.namespaces.includes(ns),
  )
}

export function registerConfigRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get(API_PREFIX + ROUTES.config, async (request, reply) => {
    const project = requireProject(request, ctx.projects)
    await enforceAppKeyLimits(ctx, request, reply, project, appKeyOf(request)!)
    reply.headers(CONFIG_CACHE)
    return projectConfigBody(project)
  })
}
