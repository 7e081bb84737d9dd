import * as z from 'zod/mini'
import { CAIP2_PATTERN } from '../../wire/patterns'
import { WALLET_REQUEST_METHODS } from './methods'

/** Every message of the session protocol is validated with these before it is acted on. */

const PUBLIC_KEY = z.string().check(z.regex(/^[0-9a-f]{64}$/))
const CAIP2 = z.string().check(z.regex(CAIP2_PATTERN))
/** CAIP-10: `namespace:reference:address`. */
export const CAIP10_PATTERN = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}:[-.%a-zA-Z0-9]{1,128}$/
const CAIP10 = z.string().check(z.regex(CAIP10_PATTERN))
const NAME = z.string().check(z.regex(/^[a-z][a-z0-9_]{0,63}$/i))
const SHORT_TEXT = z.string().check(z.maxLength(256))
const NAMESPACE_KEY = z.string().check(z.regex(/^[-a-z0-9]{3,8}$/))
/** Unix seconds (the URI's `expiryTimestamp` and the protocol's expiries are in seconds). */
const UNIX_SECONDS = z.int().check(z.gte(0))

export const PeerMetadataSchema = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(100)),
  description: z.optional(SHORT_TEXT),
  url: z.string().check(z.maxLength(2048)),
  icons: z.optional(z.array(z.string().check(z.maxLength(2048))).check(z.maxLength(8))),
})
/** Who is on the other end, as it describes itself (shown to the user; not authenticated). */
export type PeerMetadata = z.infer<typeof PeerMetadataSchema>

export const CaipNamespaceSchema = z.object({
  chains: z.optional(z.array(CAIP2).check(z.maxLength(64))),
  methods: z.optional(z.array(NAME).check(z.maxLength(64))),
  events: z.optional(z.array(NAME).check(z.maxLength(64))),
})
export const CaipNamespacesSchema = z.record(NAMESPACE_KEY, CaipNamespaceSchema)

export const SettledNamespaceSchema = z.object({
  accounts: z.array(CAIP10).check(z.minLength(1), z.maxLength(64)),
  chains: z.optional(z.array(CAIP2).check(z.maxLength(64))),
  methods: z.optional(z.array(NAME).check(z.maxLength(64))),
  events: z.optional(z.array(NAME).check(z.maxLength(64))),
})
export const SettledNamespacesSchema = z.record(NAMESPACE_KEY, SettledNamespaceSchema)

/** `scr_sessionPropose` params: the dApp's key, what it asks for, who it is, until when. */
export const ProposeParamsSchema = z.object({
  proposer: z.object({ publicKey: PUBLIC_KEY, metadata: PeerMetadataSchema }),
  requiredNamespaces: CaipNamespacesSchema,
  /** Unix seconds; the wallet refuses the proposal after it. */
  expiryTimestamp: UNIX_SECONDS,
})
export type ProposeParams = z.infer<typeof ProposeParamsSchema>

/** The result of `scr_sessionPropose` when the wallet approves: the settle message. */
export const ApproveResultSchema = z.object({
  responder: z.object({ publicKey: PUBLIC_KEY, metadata: PeerMetadataSchema }),
  namespaces: SettledNamespacesSchema,
  /** Unix seconds: the session's expiry (7 days by default). */
  expiry: UNIX_SECONDS,
})
export type ApproveResult = z.infer<typeof ApproveResultSchema>

const HEX = z.string().check(z.regex(/^0x([0-9a-fA-F]{2})*$/), z.maxLength(65_536))
const EVM_ADDRESS = z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/))
const BASE58 = z.string().check(z.regex(/^[1-9A-HJ-NP-Za-km-z]{1,8192}$/))
const BASE64 = z.string().check(z.regex(/^[A-Za-z0-9+/]*={0,2}$/), z.maxLength(65_536))
/** 65-byte EVM signature (r ‖ s ‖ v) as 0x-hex. */
export const EVM_SIGNATURE_PATTERN = /^0x[0-9a-fA-F]{130}$/

/** `personal_sign`: `[message as 0x-hex, address]` (EIP-1193 order). */
export const PersonalSignParamsSchema = z.tuple([HEX, EVM_ADDRESS])
/** `eth_signTypedData_v4`: `[address, typed data as JSON text]`. */
export const SignTypedDataParamsSchema = z.tuple([
  EVM_ADDRESS,
  z.string().check(z.maxLength(65_536)),
])
/** `solana_signMessage`: the message bytes as base58 and the signer's public key. */
export const SolanaSignMessageParamsSchema = z.object({ message: BASE58, pubkey: BASE58 })
/** `solana_signTransaction`: the serialized transaction as base64. */
export const SolanaSignTransactionParamsSchema = z.object({ transaction: BASE64 })

export const EvmSignatureResultSchema = z.string().check(z.regex(EVM_SIGNATURE_PATTERN))
export const SolanaSignatureResultSchema = z.object({ signature: BASE58 })
export const SolanaTransactionResultSchema = z.object({
  signature: BASE58,
  transaction: z.optional(BASE64),
})

/** The wallet call inside `scr_sessionRequest`, one shape per method. */
export const WalletRequestSchema = z.discriminatedUnion('method', [
  z.object({
    method: z.literal(WALLET_REQUEST_METHODS.personalSign),
    params: PersonalSignParamsSchema,
  }),
  z.object({
    method: z.literal(WALLET_REQUEST_METHODS.signTypedDataV4),
    params: SignTypedDataParamsSchema,
  }),
  z.object({
    method: z.literal(WALLET_REQUEST_METHODS.solanaSignMessage),
    params: SolanaSignMessageParamsSchema,
  }),
  z.object({
    method: z.literal(WALLET_REQUEST_METHODS.solanaSignTransaction),
    params: SolanaSignTransactionParamsSchema,
  }),
])
export type WalletRequest = z.infer<typeof WalletRequestSchema>

/** `scr_sessionRequest` params: the chain it is meant for and the wallet call. */
export const SessionRequestParamsSchema = z.object({
  chainId: CAIP2,
  request: WalletRequestSchema,
})
export type SessionRequestParams = z.infer<typeof SessionRequestParamsSchema>

/** `scr_sessionDelete` params: a reason. */
export const DeleteParamsSchema = z.object({
  code: z.int(),
  message: z.string().check(z.maxLength(256)),
})
export type DeleteParams = z.infer<typeof DeleteParamsSchema>

/** `scr_sessionPing` params: none. */
export const PingParamsSchema = z.object({})

/** The result schema of each wallet method (what the wallet must answer). */
export const WALLET_RESULT_SCHEMAS = {
  [WALLET_REQUEST_METHODS.personalSign]: EvmSignatureResultSchema,
  [WALLET_REQUEST_METHODS.signTypedDataV4]: EvmSignatureResultSchema,
  [WALLET_REQUEST_METHODS.solanaSignMessage]: SolanaSignatureResultSchema,
  [WALLET_REQUEST_METHODS.solanaSignTransaction]: SolanaTransactionResultSchema,
} as const
