/** GET /config: the project's enabled networks and wallets. */
import * as z from 'zod/mini'
import { Caip2Schema, DecimalsSchema, WalletSlugSchema } from '../primitives'

export const NamespaceSchema = z.enum(['eip155', 'solana'])

export const NetworkEntrySchema = z.object({
  networkId: Caip2Schema,
  namespace: NamespaceSchema,
  name: z.string(),
  nativeCurrency: z.object({ name: z.string(), symbol: z.string(), decimals: DecimalsSchema }),
  testnet: z.boolean(),
})
export type NetworkEntry = z.infer<typeof NetworkEntrySchema>

export const WalletEntrySchema = z.object({
  walletId: WalletSlugSchema,
  name: z.string(),
  namespaces: z.array(NamespaceSchema),
})
export type WalletEntry = z.infer<typeof WalletEntrySchema>

export const ConfigResponseSchema = z.object({
  projectId: z.string(),
  name: z.string(),
  networks: z.array(NetworkEntrySchema),
  wallets: z.array(WalletEntrySchema),
})
export type ConfigResponse = z.infer<typeof ConfigResponseSchema>
