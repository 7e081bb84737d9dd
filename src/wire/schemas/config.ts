/** GET /config: the project's enabled networks and wallets. */
import * as z from 'zod/mini'
import { Caip2Schema, DecimalsSchema, WalletSlugSchema } from '../primitives'

/** A chain namespace on the wire: `eip155` or `solana`. */
export const NamespaceSchema = /* @__PURE__ */ z.enum(['eip155', 'solana'])

/**
 * A network of the answer of GET `/config`: its CAIP-2 id, namespace, name, native currency, and
 * what a wallet needs to add it (RPC URLs, explorer).
 */
export const NetworkEntrySchema = /* @__PURE__ */ z.object({
  networkId: Caip2Schema,
  namespace: NamespaceSchema,
  name: /* @__PURE__ */ z.string(),
  nativeCurrency: /* @__PURE__ */ z.object({
    name: /* @__PURE__ */ z.string(),
    symbol: /* @__PURE__ */ z.string(),
    decimals: DecimalsSchema,
  }),
  testnet: /* @__PURE__ */ z.boolean(),
  /**
   * EVM: public RPC URLs for `wallet_addEthereumChain` (the project's `publicRpcUrls`, else a
   * built-in chain's). Absent from servers before custom chains, and for Solana.
   */
  rpcUrls: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.array(/* @__PURE__ */ z.string())),
  /** The chain's block explorer; absent when none is known. */
  explorerUrl: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string()),
})
/** A network of a project's config (`NetworkEntrySchema`). */
export type NetworkEntry = z.infer<typeof NetworkEntrySchema>

/** A wallet of the answer of GET `/config`: its id, name and namespaces. */
export const WalletEntrySchema = /* @__PURE__ */ z.object({
  walletId: WalletSlugSchema,
  name: /* @__PURE__ */ z.string(),
  namespaces: /* @__PURE__ */ z.array(NamespaceSchema),
})
/** A wallet of a project's config (`WalletEntrySchema`). */
export type WalletEntry = z.infer<typeof WalletEntrySchema>

const NamespaceListSchema = /* @__PURE__ */ z
  .array(NamespaceSchema)
  .check(/* @__PURE__ */ z.minLength(1), /* @__PURE__ */ z.maxLength(8))
const HttpsUrlSchema = /* @__PURE__ */ z
  .string()
  .check(/* @__PURE__ */ z.maxLength(2048), /* @__PURE__ */ z.regex(/^https:\/\/[^\s/?#]+\S*$/))

/**
 * A partner wallet as a project's config declares it (the server's projects file): the fields of
 * `PartnerWalletInput`, no other. Every entry it accepts is one `registerPartnerWallets` accepts,
 * but for the two rules it leaves to its caller: the id is no built-in wallet's, and the entry
 * declares `mobile` or `relay`.
 */
export const PartnerWalletSchema = /* @__PURE__ */ z.strictObject({
  id: WalletSlugSchema,
  name: /* @__PURE__ */ z
    .string()
    .check(/* @__PURE__ */ z.minLength(1), /* @__PURE__ */ z.maxLength(200)),
  icon: /* @__PURE__ */ z.optional(
    /* @__PURE__ */ z
      .string()
      .check(
        /* @__PURE__ */ z.maxLength(100_000),
        /* @__PURE__ */ z.regex(/^(https:\/\/|data:image\/)/),
      ),
  ),
  homepage: /* @__PURE__ */ z.optional(HttpsUrlSchema),
  namespaces: /* @__PURE__ */ z.optional(NamespaceListSchema),
  mobile: /* @__PURE__ */ z.optional(
    /* @__PURE__ */ z.strictObject({
      universalLink: HttpsUrlSchema,
      namespaces: NamespaceListSchema,
    }),
  ),
  relay: /* @__PURE__ */ z.optional(
    /* @__PURE__ */ z.strictObject({ namespaces: NamespaceListSchema }),
  ),
})
/** A partner wallet of a project's config (`PartnerWalletSchema`). */
export type PartnerWalletEntry = z.infer<typeof PartnerWalletSchema>

/** The answer of GET `/config`: the project's id, name, networks and wallets. */
export const ConfigResponseSchema = /* @__PURE__ */ z.object({
  projectId: /* @__PURE__ */ z.string(),
  name: /* @__PURE__ */ z.string(),
  networks: /* @__PURE__ */ z.array(NetworkEntrySchema),
  wallets: /* @__PURE__ */ z.array(WalletEntrySchema),
  /**
   * Partner wallets the project declares (they integrate `scope-connect/wallet`): each entry is
   * checked by `registerPartnerWallets` (`INVALID_CONFIG`), not here.
   */
  partnerWallets: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.array(/* @__PURE__ */ z.unknown())),
})
/** The answer of GET `/config` (`ConfigResponseSchema`). */
export type ConfigResponse = z.infer<typeof ConfigResponseSchema>
