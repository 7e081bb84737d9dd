import * as z from 'zod/mini'
import { EvmSignatureSchema, SolanaSignatureSchema } from '../../connectors/wallet-answers'
import { CAIP2_PATTERN } from '../../wire/patterns'
import type { WalletRequestMethod } from './methods'

/** Every message of the session protocol is validated with these before it is acted on. */

const PUBLIC_KEY = /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.regex(/^[0-9a-f]{64}$/))
const CAIP2 = /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.regex(CAIP2_PATTERN))
/** CAIP-10: `namespace:reference:address`. */
export const CAIP10_PATTERN = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}:[-.%a-zA-Z0-9]{1,128}$/
const CAIP10 = /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.regex(CAIP10_PATTERN))
const NAME = /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.regex(/^[a-z][a-z0-9_]{0,63}$/i))
const SHORT_TEXT = /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.maxLength(256))
const NAMESPACE_KEY = /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.regex(/^[-a-z0-9]{3,8}$/))
/** Unix seconds (the URI's `expiryTimestamp` and the protocol's expiries are in seconds). */
const UNIX_SECONDS = /* @__PURE__ */ z.int().check(/* @__PURE__ */ z.gte(0))

export const PeerMetadataSchema = /* @__PURE__ */ z.object({
  name: /* @__PURE__ */ z
    .string()
    .check(/* @__PURE__ */ z.minLength(1), /* @__PURE__ */ z.maxLength(100)),
  description: /* @__PURE__ */ z.optional(SHORT_TEXT),
  url: /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.maxLength(2048)),
  icons: /* @__PURE__ */ z.optional(
    /* @__PURE__ */ z
      .array(/* @__PURE__ */ z.string().check(/* @__PURE__ */ z.maxLength(2048)))
      .check(/* @__PURE__ */ z.maxLength(8)),
  ),
})
/** Who is on the other end, as it describes itself (shown to the user; not authenticated). */
export type PeerMetadata = z.infer<typeof PeerMetadataSchema>

export const CaipNamespaceSchema = /* @__PURE__ */ z.object({
  chains: /* @__PURE__ */ z.optional(
    /* @__PURE__ */ z.array(CAIP2).check(/* @__PURE__ */ z.maxLength(64)),
  ),
  methods: /* @__PURE__ */ z.optional(
    /* @__PURE__ */ z.array(NAME).check(/* @__PURE__ */ z.maxLength(64)),
  ),
  events: /* @__PURE__ */ z.optional(
    /* @__PURE__ */ z.array(NAME).check(/* @__PURE__ */ z.maxLength(64)),
  ),
})
export const CaipNamespacesSchema = /* @__PURE__ */ z.record(NAMESPACE_KEY, CaipNamespaceSchema)

export const SettledNamespaceSchema = /* @__PURE__ */ z.object({
  accounts: /* @__PURE__ */ z
    .array(CAIP10)
    .check(/* @__PURE__ */ z.minLength(1), /* @__PURE__ */ z.maxLength(64)),
  chains: /* @__PURE__ */ z.optional(
    /* @__PURE__ */ z.array(CAIP2).check(/* @__PURE__ */ z.maxLength(64)),
  ),
  methods: /* @__PURE__ */ z.optional(
    /* @__PURE__ */ z.array(NAME).check(/* @__PURE__ */ z.maxLength(64)),
  ),
  events: /* @__PURE__ */ z.optional(
    /* @__PURE__ */ z.array(NAME).check(/* @__PURE__ */ z.maxLength(64)),
  ),
})
export const SettledNamespacesSchema = /* @__PURE__ */ z.record(
  NAMESPACE_KEY,
  SettledNamespaceSchema,
)

/** `scr_sessionPropose` params: the dApp's key, what it asks for, who it is, until when. */
export const ProposeParamsSchema = /* @__PURE__ */ z.object({
  proposer: /* @__PURE__ */ z.object({ publicKey: PUBLIC_KEY, metadata: PeerMetadataSchema }),
  requiredNamespaces: CaipNamespacesSchema,
  /** Unix seconds; the wallet refuses the proposal after it. */
  expiryTimestamp: UNIX_SECONDS,
})
export type ProposeParams = z.infer<typeof ProposeParamsSchema>

/** The result of `scr_sessionPropose` when the wallet approves: the settle message. */
export const ApproveResultSchema = /* @__PURE__ */ z.object({
  responder: /* @__PURE__ */ z.object({ publicKey: PUBLIC_KEY, metadata: PeerMetadataSchema }),
  namespaces: SettledNamespacesSchema,
  /** Unix seconds: the session's expiry (7 days by default). */
  expiry: UNIX_SECONDS,
})
export type ApproveResult = z.infer<typeof ApproveResultSchema>

const HEX = /* @__PURE__ */ z
  .string()
  .check(/* @__PURE__ */ z.regex(/^0x([0-9a-fA-F]{2})*$/), /* @__PURE__ */ z.maxLength(65_536))
const EVM_ADDRESS = /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.regex(/^0x[0-9a-fA-F]{40}$/))
const BASE58 = /* @__PURE__ */ z
  .string()
  .check(/* @__PURE__ */ z.regex(/^[1-9A-HJ-NP-Za-km-z]{1,8192}$/))
const BASE64 = /* @__PURE__ */ z
  .string()
  .check(/* @__PURE__ */ z.regex(/^[A-Za-z0-9+/]*={0,2}$/), /* @__PURE__ */ z.maxLength(65_536))
/** 65-byte EVM signature (r ‖ s ‖ v) as 0x-hex (an EOA's; the results take longer ones too). */
export const EVM_SIGNATURE_PATTERN = /^0x[0-9a-fA-F]{130}$/

/** `personal_sign`: `[message as 0x-hex, address]` (EIP-1193 order). */
export const PersonalSignParamsSchema = /* @__PURE__ */ z.tuple([HEX, EVM_ADDRESS])
/** `eth_signTypedData_v4`: `[address, typed data as JSON text]`. */
export const SignTypedDataParamsSchema = /* @__PURE__ */ z.tuple([
  EVM_ADDRESS,
  /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.maxLength(65_536)),
])
/** `solana_signMessage`: the message bytes as base58 and the signer's public key. */
export const SolanaSignMessageParamsSchema = /* @__PURE__ */ z.object({
  message: BASE58,
  pubkey: BASE58,
})
/** `solana_signTransaction`: the serialized transaction as base64. */
export const SolanaSignTransactionParamsSchema = /* @__PURE__ */ z.object({ transaction: BASE64 })

const QUANTITY = /* @__PURE__ */ z
  .string()
  .check(/* @__PURE__ */ z.regex(/^0x(0|[1-9a-fA-F][0-9a-fA-F]{0,63})$/))
/** `eth_sendTransaction`: one transaction object, quantities as 0x-hex (EIP-1193 order). */
export const EvmSendTransactionParamsSchema = /* @__PURE__ */ z.tuple([
  /* @__PURE__ */ z.object({
    from: EVM_ADDRESS,
    to: /* @__PURE__ */ z.optional(EVM_ADDRESS),
    value: /* @__PURE__ */ z.optional(QUANTITY),
    data: /* @__PURE__ */ z.optional(HEX),
    gas: /* @__PURE__ */ z.optional(QUANTITY),
    gasPrice: /* @__PURE__ */ z.optional(QUANTITY),
    maxFeePerGas: /* @__PURE__ */ z.optional(QUANTITY),
    maxPriorityFeePerGas: /* @__PURE__ */ z.optional(QUANTITY),
    nonce: /* @__PURE__ */ z.optional(QUANTITY),
  }),
])
/** The hash `eth_sendTransaction` answers. */
export const EvmTransactionHashResultSchema = /* @__PURE__ */ z
  .string()
  .check(/* @__PURE__ */ z.regex(/^0x[0-9a-fA-F]{64}$/))

/**
 * What an EVM signing method answers: hex of whole bytes, 1 to 8,192 (an EOA's 65, or an ERC-1271
 * / ERC-6492 smart-account signature), as every wallet answer is checked (`EvmSignatureSchema`).
 */
export const EvmSignatureResultSchema = EvmSignatureSchema
/** What `solana_signMessage` answers: a 64-byte base58 signature. */
export const SolanaSignatureResultSchema = /* @__PURE__ */ z.object({
  signature: SolanaSignatureSchema,
})
export const SolanaTransactionResultSchema = /* @__PURE__ */ z.object({
  signature: SolanaSignatureSchema,
  transaction: /* @__PURE__ */ z.optional(BASE64),
})

/** The wallet call inside `scr_sessionRequest`, one shape per method. */
export const WalletRequestSchema = /* @__PURE__ */ z.discriminatedUnion('method', [
  /* @__PURE__ */ z.object({
    method: /* @__PURE__ */ z.literal('personal_sign' satisfies WalletRequestMethod),
    params: PersonalSignParamsSchema,
  }),
  /* @__PURE__ */ z.object({
    method: /* @__PURE__ */ z.literal('eth_signTypedData_v4' satisfies WalletRequestMethod),
    params: SignTypedDataParamsSchema,
  }),
  /* @__PURE__ */ z.object({
    method: /* @__PURE__ */ z.literal('solana_signMessage' satisfies WalletRequestMethod),
    params: SolanaSignMessageParamsSchema,
  }),
  /* @__PURE__ */ z.object({
    method: /* @__PURE__ */ z.literal('solana_signTransaction' satisfies WalletRequestMethod),
    params: SolanaSignTransactionParamsSchema,
  }),
  /* @__PURE__ */ z.object({
    method: /* @__PURE__ */ z.literal('eth_sendTransaction' satisfies WalletRequestMethod),
    params: EvmSendTransactionParamsSchema,
  }),
])
/** A wallet call carried over a paired session: `personal_sign`, `eth_signTypedData_v4`, `solana_signMessage`, `solana_signTransaction` or `eth_sendTransaction`, with its params. */
export type WalletRequest = z.infer<typeof WalletRequestSchema>

/** `scr_sessionRequest` params: the chain it is meant for and the wallet call. */
export const SessionRequestParamsSchema = /* @__PURE__ */ z.object({
  chainId: CAIP2,
  request: WalletRequestSchema,
})
export type SessionRequestParams = z.infer<typeof SessionRequestParamsSchema>

/** `scr_sessionDelete` params: a reason. */
export const DeleteParamsSchema = /* @__PURE__ */ z.object({
  code: /* @__PURE__ */ z.int(),
  message: /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.maxLength(256)),
})
export type DeleteParams = z.infer<typeof DeleteParamsSchema>

/**
 * `scr_sessionEvent` params: the chain and the event. `accountsChanged`: the wallet's accounts on
 * that chain now, the active one first (the dApp checks them as every wallet answer is).
 */
export const SessionEventParamsSchema = /* @__PURE__ */ z.object({
  chainId: CAIP2,
  event: /* @__PURE__ */ z.object({
    name: /* @__PURE__ */ z.literal('accountsChanged'),
    data: /* @__PURE__ */ z
      .array(/* @__PURE__ */ z.string().check(/* @__PURE__ */ z.maxLength(128)))
      .check(/* @__PURE__ */ z.minLength(1), /* @__PURE__ */ z.maxLength(64)),
  }),
})
export type SessionEventParams = z.infer<typeof SessionEventParamsSchema>

/** `scr_sessionPing` params: none. */
export const PingParamsSchema = /* @__PURE__ */ z.object({})

/**
 * The result schema of each wallet method (what the wallet must answer). Keys are written out:
 * computed keys would keep this table in every bundle that imports the module.
 */
export const WALLET_RESULT_SCHEMAS = {
  personal_sign: EvmSignatureResultSchema,
  eth_signTypedData_v4: EvmSignatureResultSchema,
  solana_signMessage: SolanaSignatureResultSchema,
  solana_signTransaction: SolanaTransactionResultSchema,
  eth_sendTransaction: EvmTransactionHashResultSchema,
} as const satisfies Record<WalletRequestMethod, unknown>
