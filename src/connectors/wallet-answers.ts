// What a wallet answers, checked at one boundary before it becomes a connection, a signature or
// a hash (issue 27). Loaded with the wallet machines and the transaction part (lazy chunks), never
// with the `Client` entry.
import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { base58, base64 } from '@scure/base'
import * as z from 'zod/mini'
import { AppError } from '../errors/app-error'
import type { ChainNamespace } from '../registry/types'
import { Caip2Schema } from '../wire/primitives'
import { TransactionHashSchema } from '../wire/schemas/transactions'
import type { ConnectorEvent, WalletConnection } from './types'

/**
 * The longest EVM signature taken, in bytes: an EOA signs 65, an ERC-1271 smart account or an
 * ERC-6492 (counterfactual) signature is longer — its factory call included — and this leaves
 * room for them; anything longer is no signature (`WALLET_ERROR`).
 */
export const MAX_EVM_SIGNATURE_BYTES = 8_192
/** Its hex length with `0x` (a literal: top-level arithmetic is not free of side effects to a bundler). */
const EVM_SIGNATURE_MAX_CHARS = 16_386
/** The longest signed Solana transaction taken (base64 characters): a transaction is ≤ 1,232 bytes. */
const MAX_SIGNED_TRANSACTION_CHARS = 4_096
/** The most accounts a wallet may report. */
const MAX_ACCOUNTS = 256

/** True when an EVM address's mixed case is its EIP-55 checksum (all-lower and all-upper pass). */
function eip55(address: string): boolean {
  const hex = address.slice(2)
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return true
  const hash = bytesToHex(keccak_256(utf8ToBytes(hex.toLowerCase())))
  for (let i = 0; i < 40; i++) {
    const c = hex[i] as string
    if (c >= '0' && c <= '9') continue
    const upper = Number.parseInt(hash[i] as string, 16) >= 8
    if ((c === c.toUpperCase()) !== upper) return false
  }
  return true
}

/** Base58 that decodes to exactly `bytes` bytes. */
function base58Of(bytes: number) {
  return (value: string): boolean => {
    if (value.length > 100) return false
    try {
      return base58.decode(value).length === bytes
    } catch {
      return false
    }
  }
}

/** An EVM address: 20 bytes, `0x` + 40 hex, lower-case or EIP-55 checksummed. */
export const EvmAddressSchema = /* @__PURE__ */ z
  .string()
  .check(/* @__PURE__ */ z.regex(/^0x[0-9a-fA-F]{40}$/), /* @__PURE__ */ z.refine(eip55))

/** A Solana address: a 32-byte ed25519 public key in base58. */
export const SolanaAddressSchema = /* @__PURE__ */ z
  .string()
  .check(/* @__PURE__ */ z.refine(/* @__PURE__ */ base58Of(32)))

/** An EVM signature: `0x` + whole bytes of hex, 1 to `MAX_EVM_SIGNATURE_BYTES` (65 not required). */
export const EvmSignatureSchema = /* @__PURE__ */ z
  .string()
  .check(
    /* @__PURE__ */ z.maxLength(EVM_SIGNATURE_MAX_CHARS),
    /* @__PURE__ */ z.regex(/^0x(?:[0-9a-fA-F]{2})+$/),
  )

/** A Solana signature: 64 bytes in base58. */
export const SolanaSignatureSchema = /* @__PURE__ */ z
  .string()
  .check(/* @__PURE__ */ z.refine(/* @__PURE__ */ base58Of(64)))

const addressOf = (namespace: ChainNamespace) =>
  namespace === 'eip155' ? EvmAddressSchema : SolanaAddressSchema

const chainOf = (namespace: ChainNamespace) => (chainId: string) =>
  namespace === 'eip155' ? /^eip155:[1-9][0-9]{0,18}$/.test(chainId) : chainId.startsWith('solana:')

/** A connection a connector reports: namespace, a chain of it, and its accounts. */
function connectionSchema(namespace: ChainNamespace) {
  return z.object({
    connectorId: z.string(),
    namespace: z.literal(namespace),
    chainId: Caip2Schema.check(z.refine(chainOf(namespace))),
    accounts: z.array(addressOf(namespace)).check(z.minLength(1), z.maxLength(MAX_ACCOUNTS)),
  })
}

/** The accounts of an `accountsChanged` event (none: locked). */
const accountsSchema = (namespace: ChainNamespace) =>
  z.array(addressOf(namespace)).check(z.maxLength(MAX_ACCOUNTS))

// Built once per namespace: a zod schema costs far more to build than to run (every connect and
// every wallet event is checked).
const CONNECTION_SCHEMAS = {
  eip155: /* @__PURE__ */ connectionSchema('eip155'),
  solana: /* @__PURE__ */ connectionSchema('solana'),
}
const ACCOUNTS_SCHEMAS = {
  eip155: /* @__PURE__ */ accountsSchema('eip155'),
  solana: /* @__PURE__ */ accountsSchema('solana'),
}

const bad = (what: string): AppError =>
  new AppError('WALLET_ERROR', `The wallet answered ${what} that is not valid.`)

/**
 * A connection a connector answered, checked: `eip155` or `solana`, a chain of that namespace,
 * 1 to 256 accounts of its format (EVM: 20-byte hex, lower-case or EIP-55; Solana: a base58
 * 32-byte key). @throws `WALLET_ERROR` otherwise (never spread, never half taken).
 */
export function checkedConnection(value: unknown): WalletConnection {
  const namespace = (value as { namespace?: unknown } | null)?.namespace
  if (namespace !== 'eip155' && namespace !== 'solana') throw bad('a connection')
  if (!CONNECTION_SCHEMAS[namespace].safeParse(value).success) throw bad('a connection')
  return value as WalletConnection
}

/**
 * A wallet event, checked against the connection's namespace: `accountsChanged` with accounts of
 * its format (none: locked), `chainChanged` to a chain of it, `displayUri` a `wc:` URI. Null when it is
 * not valid (dropped).
 */
export function checkedEvent(
  event: ConnectorEvent,
  namespace: ChainNamespace | null,
): ConnectorEvent | null {
  if (event.type === 'disconnect') return event
  // The pairing URI comes before any connection (WalletConnect's `wc:` URI, a few hundred bytes).
  if (event.type === 'displayUri')
    return typeof event.uri === 'string' && event.uri.startsWith('wc:') && event.uri.length <= 4096
      ? event
      : null
  if (namespace === null) return null
  if (event.type === 'chainChanged')
    return Caip2Schema.safeParse(event.chainId).success && chainOf(namespace)(event.chainId)
      ? event
      : null
  return ACCOUNTS_SCHEMAS[namespace].safeParse(event.accounts).success ? event : null
}

/** The methods whose answer is a signature (EVM hex), checked by `checkedAnswer`. */
const EVM_SIGNING = new Set(['personal_sign', 'eth_sign', 'eth_signTypedData_v4'])

/**
 * A request's answer, checked where its method says what it is: EVM signatures (`personal_sign`,
 * `eth_signTypedData_v4`) as `EvmSignatureSchema`; `solana_signMessage` as `{ signature }` of 64
 * base58 bytes; `solana_signTransaction` as `{ signedTransaction }` (base64) or `{ signature }`;
 * `solana_signAndSendTransaction` as `{ signature }`. Other methods pass as answered.
 * @throws `WALLET_ERROR` for an answer of the wrong shape.
 */
export function checkedAnswer(method: string, answer: unknown): unknown {
  if (EVM_SIGNING.has(method)) {
    if (!EvmSignatureSchema.safeParse(answer).success) throw bad(`${method} with a signature`)
    return answer
  }
  const object = typeof answer === 'object' && answer !== null ? answer : null
  const signature = (object as { signature?: unknown } | null)?.signature
  switch (method) {
    case 'solana_signMessage':
    case 'solana_signAndSendTransaction':
      if (!SolanaSignatureSchema.safeParse(signature).success)
        throw bad(`${method} with a signature`)
      return answer
    case 'solana_signTransaction': {
      const signed = (object as { signedTransaction?: unknown } | null)?.signedTransaction
      if (signature !== undefined && SolanaSignatureSchema.safeParse(signature).success)
        return answer
      if (
        typeof signed === 'string' &&
        signed.length <= MAX_SIGNED_TRANSACTION_CHARS &&
        decodes(signed)
      )
        return answer
      throw bad(`${method} with a signed transaction`)
    }
    default:
      return answer
  }
}

function decodes(value: string): boolean {
  try {
    return base64.decode(value).length > 0
  } catch {
    return false
  }
}

/**
 * A transaction hash a wallet answered: 32 bytes of hex (EVM) or a 64-byte base58 signature
 * (Solana), as `TransactionHashSchema` of `scope-connect/wire`. @throws `WALLET_ERROR` otherwise.
 */
export function checkedTransactionHash(answer: unknown, method: string): string {
  if (typeof answer === 'string' && TransactionHashSchema.safeParse(answer).success) {
    if (answer.startsWith('0x') || SolanaSignatureSchema.safeParse(answer).success) return answer
  }
  throw new AppError('WALLET_ERROR', `The wallet answered ${method} without a transaction hash.`)
}
