import {
  Caip2Schema,
  DecimalsSchema,
  PartnerWalletSchema,
  WalletSlugSchema,
} from 'scope-connect/wire'
import * as z from 'zod/mini'

/** Server-only shape of the projects file (the wire schemas never see it). */
export const RateLimitPolicySchema = z.strictObject({
  limit: z.int().check(z.gte(1), z.lte(1_000_000)),
  windowSeconds: z.int().check(z.gte(1), z.lte(86_400)),
})
export type RateLimitPolicyConfig = z.infer<typeof RateLimitPolicySchema>

const HTTP_URL = z.string().check(z.maxLength(2048), z.regex(/^https?:\/\/[^\s/?#]+\S*$/))
const HTTPS_URL = z.string().check(z.maxLength(2048), z.regex(/^https:\/\/[^\s/?#]+\S*$/))

export const ProjectNetworkSchema = z.strictObject({
  chainId: Caip2Schema,
  rpcUrl: z.optional(z.string().check(z.regex(/^https?:\/\/\S+$/))),
  /** EVM: reads over one persistent WebSocket, `rpcUrl` the fallback (docs/chains.md). */
  wsUrl: z.optional(z.string().check(z.regex(/^wss?:\/\/\S+$/))),
  /** EVM: Multicall3's address when not the canonical one; `null` when the chain has none. */
  multicall3: z.optional(z.nullable(z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/)))),
  /** EVM: the block time in ms, for the block-number cache (docs/chains.md); measured when absent. */
  blockTimeMs: z.optional(z.int().check(z.gte(0), z.lte(600_000))),
  // What a Client needs to show the chain and add it to a wallet (GET /config). Required for a
  // chain the library's registry lacks (name, nativeCurrency); they override a built-in's.
  name: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
  nativeCurrency: z.optional(
    z.strictObject({
      name: z.string().check(z.minLength(1), z.maxLength(200)),
      symbol: z.string().check(z.minLength(1), z.maxLength(16)),
      decimals: DecimalsSchema,
    }),
  ),
  testnet: z.optional(z.boolean()),
  /** The chain's block explorer (`wallet_addEthereumChain`'s `blockExplorerUrls`). */
  explorerUrl: z.optional(HTTPS_URL),
  /**
   * EVM: the RPC URLs a wallet is given to add the chain (`wallet_addEthereumChain`), sent in GET
   * /config. Never `rpcUrl`, which may carry the operator's provider key. Default: a built-in
   * chain's public endpoints; none for a custom chain (`switchChain` then cannot add it).
   */
  publicRpcUrls: z.optional(z.array(HTTP_URL).check(z.minLength(1), z.maxLength(8))),
})

export const ProjectSchema = z.strictObject({
  projectId: z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/)),
  name: z.string().check(z.minLength(1), z.maxLength(200)),
  appKeys: z.array(z.string().check(z.regex(/^[A-Za-z0-9_-]{8,128}$/))).check(z.minLength(1)),
  networks: z.array(ProjectNetworkSchema).check(z.minLength(1)),
  /** Built-in wallet ids and ids of this project's `partnerWallets`. */
  wallets: z.array(WalletSlugSchema),
  /**
   * Wallets that integrate `scope-connect/wallet` (`sc*` universal links, `scr` relay), the fields of
   * the library's `PartnerWalletInput`. Each is enabled for the project and sent in GET /config.
   */
  partnerWallets: z.optional(z.array(PartnerWalletSchema)),
  /** Absent: every origin may call. Present: only these exact origins (`https://app.example`). */
  allowedOrigins: z.optional(z.array(z.string())),
  /**
   * Per project: the app-key group (balances, config, sessions, relay token) per caller IP, the
   * same routes' project-wide ceiling, and the per-session routes.
   */
  rateLimits: z.optional(
    z.strictObject({
      appKey: z.optional(RateLimitPolicySchema),
      project: z.optional(RateLimitPolicySchema),
      session: z.optional(RateLimitPolicySchema),
    }),
  ),
})
export type ProjectConfig = z.infer<typeof ProjectSchema>

export const ProjectsFileSchema = z.strictObject({
  /**
   * Callbacks carry no credential, and a failed authentication names no project, so their per-IP
   * limits are server-wide policies.
   */
  rateLimits: z.optional(
    z.strictObject({
      callbackIp: z.optional(RateLimitPolicySchema),
      authFailureIp: z.optional(RateLimitPolicySchema),
    }),
  ),
  projects: z.array(ProjectSchema).check(z.minLength(1)),
})
export type ProjectsConfig = z.infer<typeof ProjectsFileSchema>
