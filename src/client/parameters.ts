// The checks of the `Client`'s public parameters (zod/mini). They load in a chunk of their own
// with the Client (see `./check.ts`), so the `Client` entry carries no validator.
import * as z from 'zod/mini'
import { SIGN_MESSAGE_MAX_LENGTH } from '../../machines/sign/sign.requests'
import { TokenBalanceQueriesSchema, TokenBalanceQuerySchema } from '../balance/parameters'
import { PeerMetadataSchema } from '../relay/protocol/schemas'
import {
  SendTransactionParametersSchema,
  SOLANA_TRANSACTION_MAX_LENGTH,
} from '../transaction/parameters'
import { parseParameters } from '../wire/parse-parameters'
import { Base64Schema, Caip2Schema, HexDataSchema } from '../wire/primitives'

/** `{ raw }`'s hex length with `0x`: 2 + 2 × `SIGN_MESSAGE_MAX_LENGTH` (a literal: see the side-effects test). */
const RAW_MESSAGE_MAX_CHARS = 131_074
const NAMESPACE = /* @__PURE__ */ z.enum(['eip155', 'solana'])
const fn = /* @__PURE__ */ z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function')

/** `signMessage`'s message: text (1 to 65,536 characters) or `{ raw }` hex (1 to 65,536 bytes). */
export const SignableMessageSchema = /* @__PURE__ */ z.union([
  /* @__PURE__ */ z
    .string()
    .check(/* @__PURE__ */ z.minLength(1), /* @__PURE__ */ z.maxLength(SIGN_MESSAGE_MAX_LENGTH)),
  /* @__PURE__ */ z.object({
    raw: /* @__PURE__ */ HexDataSchema.check(
      /* @__PURE__ */ z.minLength(4),
      /* @__PURE__ */ z.maxLength(RAW_MESSAGE_MAX_CHARS),
    ),
  }),
])

/** EIP-712 typed data: `domain`, `types` (each a list of `{ name, type }`), `primaryType`, `message`. */
export const TypedDataSchema = /* @__PURE__ */ z
  .looseObject({
    domain: /* @__PURE__ */ z.record(/* @__PURE__ */ z.string(), /* @__PURE__ */ z.unknown()),
    types: /* @__PURE__ */ z.record(
      /* @__PURE__ */ z.string(),
      /* @__PURE__ */ z.array(
        /* @__PURE__ */ z.object({
          name: /* @__PURE__ */ z.string(),
          type: /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.minLength(1)),
        }),
      ),
    ),
    primaryType: /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.minLength(1)),
    message: /* @__PURE__ */ z.record(/* @__PURE__ */ z.string(), /* @__PURE__ */ z.unknown()),
  })
  .check(
    /* @__PURE__ */ z.refine((data) => Object.hasOwn(data.types, data.primaryType), {
      message: 'primaryType must name one of types',
      path: ['primaryType'],
    }),
  )

/** `pair()`'s options (`ClientPairOptions`), all optional. */
export const ClientPairOptionsSchema = /* @__PURE__ */ z.optional(
  /* @__PURE__ */ z.object({
    namespace: /* @__PURE__ */ z.optional(NAMESPACE),
    chains: /* @__PURE__ */ z.optional(
      /* @__PURE__ */ z.array(Caip2Schema).check(/* @__PURE__ */ z.minLength(1)),
    ),
    requiredNamespaces: /* @__PURE__ */ z.optional(
      /* @__PURE__ */ z.record(
        /* @__PURE__ */ z.string(),
        /* @__PURE__ */ z.object({
          chains: /* @__PURE__ */ z.array(Caip2Schema),
          methods: /* @__PURE__ */ z.array(/* @__PURE__ */ z.string()),
        }),
      ),
    ),
    metadata: /* @__PURE__ */ z.optional(PeerMetadataSchema),
    store: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.object({ save: fn, load: fn, clear: fn })),
    proposalTtlSeconds: /* @__PURE__ */ z.optional(
      /* @__PURE__ */ z.int().check(/* @__PURE__ */ z.gte(1)),
    ),
  }),
)

const walletId = /* @__PURE__ */ z
  .string()
  .check(/* @__PURE__ */ z.minLength(1), /* @__PURE__ */ z.maxLength(256))
// Built once, here: a zod schema costs far more to build than to run, so none is built per call.
const SelectWalletOptionsSchema = /* @__PURE__ */ z.object({ namespace: NAMESPACE })
const ChainIdSchema = /* @__PURE__ */ z.string()
const SolanaTransactionSchema = /* @__PURE__ */ Base64Schema.check(
  /* @__PURE__ */ z.maxLength(SOLANA_TRANSACTION_MAX_LENGTH),
)

/**
 * One check per public method of the `Client` that takes parameters, by method name: each throws
 * `INVALID_CONFIG` naming the field (`details`) before anything is sent.
 */
export const CLIENT_PARAMETERS = {
  selectWallet(id: unknown, options: unknown): void {
    parseParameters(walletId, id, 'walletId')
    parseParameters(SelectWalletOptionsSchema, options, 'options')
  },
  pair(options: unknown): void {
    parseParameters(ClientPairOptionsSchema, options, 'options')
  },
  switchChain(chainId: unknown): void {
    parseParameters(ChainIdSchema, chainId, 'chainId')
  },
  signMessage(message: unknown): void {
    parseParameters(SignableMessageSchema, message, 'message')
  },
  signTypedData(typedData: unknown): void {
    parseParameters(TypedDataSchema, typedData, 'typedData')
  },
  signTransaction(transaction: unknown): void {
    parseParameters(SolanaTransactionSchema, transaction, 'transaction')
  },
  sendTransaction(params: unknown): void {
    parseParameters(SendTransactionParametersSchema, params, 'sendTransaction parameters')
  },
  getBalance(query: unknown): void {
    parseParameters(TokenBalanceQuerySchema, query, 'query')
  },
  getBalances(queries: unknown): void {
    parseParameters(TokenBalanceQueriesSchema, queries, 'queries')
  },
}

/** The methods `CLIENT_PARAMETERS` checks. */
export type ClientParameterMethod = keyof typeof CLIENT_PARAMETERS
