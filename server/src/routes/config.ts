import type { FastifyInstance } from 'fastify'
import { type Caip2ChainId, getNetworkInfo, getWalletInfo } from 'scope-connect'
import {
  API_PREFIX,
  type ConfigResponse,
  type PartnerWalletEntry,
  ROUTES,
} from 'scope-connect/wire'
import { appKeyOf, requireProject } from '../auth/app-key'
import type { ProjectConfig } from '../config/projects-schema'
import type { AppContext } from '../context'
import { CONFIG_CACHE } from '../http/hygiene'
import { enforceAppKeyLimits } from '../http/rate-limit'

/** The project's networks and wallets in the library's registry shapes; rpcUrls never leave the server. */
export function projectConfigBody(project: ProjectConfig): ConfigResponse {
  return {
    projectId: project.projectId,
    name: project.name,
    networks: project.networks.map(({ chainId }) => {
      const info = getNetworkInfo(chainId as Caip2ChainId)
      return {
        networkId: info.chainId,
        namespace: info.namespace,
        name: info.name,
        nativeCurrency: { ...info.nativeCurrency },
        testnet: info.testnet,
      }
    }),
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
