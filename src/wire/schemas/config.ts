/** GET /config: the project's enabled networks and wallets. */
import * as z from 'zod/mini'
import { Caip2Schema, DecimalsSchema, WalletSlugSchema } from '../primitives'

export const NamespaceSchema = /* @__PURE__ */ z.enum(['eip155', 'solana'])

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
})
export type NetworkEntry = z.infer<typeof NetworkEntrySchema>

export const WalletEntrySchema = /* @__PURE__ */ z.object({
  walletId: WalletSlugSchema,
  name: /* @__PURE__ */ z.string(),
  namespaces: /* @__PURE__ */ z.array(NamespaceSchema),
})
export type WalletEntry = z.infer<typeof WalletEntrySchema>

export const ConfigResponseSchema = /* @__PURE__ */ z.object({
  projectId: /* @__PURE__ */ z.string(),
  name: /* @__PURE__ */ z.string(),
  networks: /* @__PURE__ */ z.array(NetworkEntrySchema),
  wallets: /* @__PURE__ */ z.array(WalletEntrySchema),
})
export type ConfigResponse = z.infer<typeof ConfigResponseSchema>
