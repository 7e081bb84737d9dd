import { bytesToHex, randomBytes } from '@noble/hashes/utils.js'
import { AppError } from '../errors/app-error'
import { invalidArgument, isObjectLike, requireObject } from '../errors/arguments'
import { decodeAbiString, NAME_SELECTOR, VERSION_SELECTOR } from './abi'
import { type ContractReader, readContract } from './contract-reader'
import type { Eip3009Authorization, Eip3009TypedData } from './types'

const ADDRESS = /^0x[0-9a-fA-F]{40}$/
// 2^256 - 1, written out: a bundler keeps an unused constant computed with `**`.
const MAX_UINT256 = 0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffn
/** Default validity: one hour from now. */
export const DEFAULT_AUTHORIZATION_VALIDITY_SECONDS = 3600

/** Parameters of `buildEip3009Authorization`: token, chain, payer, payee, value, validity window, nonce and the contract reader for the token's EIP-712 domain. */
export interface BuildEip3009AuthorizationParams {
  /** The EIP-3009 token contract (the domain's `verifyingContract`). */
  token: string
  /** EVM chain id: a number or CAIP-2 `eip155:<n>`. */
  chainId: number | string
  from: string
  to: string
  /** Amount in the token's smallest unit: a bigint or a decimal string. */
  value: bigint | string
  /** Unix seconds; default 0 (valid at once). */
  validAfter?: bigint | number
  /** Unix seconds; default now + 1 hour. */
  validBefore?: bigint | number
  /** 0x + 64 hex; default 32 random bytes from the platform CSPRNG. */
  nonce?: string
  /** Reads `name()` and `version()` of the token on chain (EIP-1193 provider or `{ call }`). */
  reader: ContractReader
  now?: () => number
}

function invalid(field: string, reason: string): AppError {
  return new AppError('INVALID_CONFIG', `Invalid EIP-3009 authorization (${field}).`, {
    details: [{ field, reason }],
  })
}

function uint(value: unknown, field: string): bigint {
  let n: bigint
  try {
    if (typeof value === 'bigint') n = value
    else if (typeof value === 'number' && Number.isSafeInteger(value)) n = BigInt(value)
    else if (typeof value === 'string' && /^(0|[1-9][0-9]*)$/.test(value)) n = BigInt(value)
    else throw new Error()
  } catch {
    throw invalid(field, 'must be a non-negative integer (bigint, safe integer or decimal string)')
  }
  if (n < 0n || n > MAX_UINT256) throw invalid(field, 'must fit in uint256')
  return n
}

function evmChainId(chainId: number | string): number {
  if (typeof chainId !== 'number' && typeof chainId !== 'string') {
    throw invalid('chainId', 'must be a positive EVM chain id')
  }
  const n =
    typeof chainId === 'string' && chainId.startsWith('eip155:')
      ? Number(chainId.slice(7))
      : Number(chainId)
  if (!Number.isSafeInteger(n) || n <= 0)
    throw invalid('chainId', 'must be a positive EVM chain id')
  return n
}

/** The `TransferWithAuthorization` type of EIP-3009 and the EIP-712 domain type. */
export const EIP3009_TYPES: Eip3009TypedData['types'] = {
  EIP712Domain: [
    { name: 'name', type: 'string' },
    { name: 'version', type: 'string' },
    { name: 'chainId', type: 'uint256' },
    { name: 'verifyingContract', type: 'address' },
  ],
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
}

/**
 * The EIP-712 typed data of an EIP-3009 `TransferWithAuthorization` for `token`: its domain
 * (`name()` and `version()` read on chain through `reader`, never from a table), and the message
 * with a fresh 32-byte nonce. uint256 values are decimal strings, so the result is plain JSON.
 * An internal building block of `signTransferAuthorization`, for custom connection paths.
 *
 * @throws AppError `INVALID_CONFIG` for parameters that are not an object, a bad address, amount,
 * time or nonce (`details[0].field` names it), or `validBefore <= validAfter`; `RPC_ERROR` when
 * `name()`/`version()` cannot be read.
 */
export async function buildEip3009Authorization(
  params: BuildEip3009AuthorizationParams,
): Promise<Eip3009TypedData> {
  requireObject(params, 'params')
  for (const field of ['token', 'from', 'to'] as const) {
    if (typeof params[field] !== 'string' || !ADDRESS.test(params[field])) {
      throw invalid(field, 'must be a 0x-prefixed 20-byte address')
    }
  }
  const chainId = evmChainId(params.chainId)
  const value = uint(params.value, 'value')
  if (params.now !== undefined && typeof params.now !== 'function') {
    throw invalid('now', 'must be a function returning milliseconds')
  }
  const nowSeconds = Math.floor((params.now ?? Date.now)() / 1000)
  const validAfter = uint(params.validAfter ?? 0, 'validAfter')
  const validBefore = uint(
    params.validBefore ?? nowSeconds + DEFAULT_AUTHORIZATION_VALIDITY_SECONDS,
    'validBefore',
  )
  if (validBefore <= validAfter) throw invalid('validBefore', 'must be after validAfter')
  const nonce = params.nonce ?? `0x${bytesToHex(randomBytes(32))}`
  if (typeof nonce !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(nonce))
    throw invalid('nonce', 'must be 0x + 64 hex digits')
  const reader: unknown = params.reader
  if (
    !isObjectLike(reader) ||
    (typeof reader.call !== 'function' && typeof reader.request !== 'function')
  ) {
    throw invalid('reader', 'must be an EIP-1193 provider or { call }')
  }
  const [name, version] = await Promise.all([
    readContract(params.reader, params.token, NAME_SELECTOR).then((d) =>
      decodeAbiString(d, 'name'),
    ),
    readContract(params.reader, params.token, VERSION_SELECTOR).then((d) =>
      decodeAbiString(d, 'version'),
    ),
  ])
  return {
    types: EIP3009_TYPES,
    primaryType: 'TransferWithAuthorization',
    domain: { name, version, chainId, verifyingContract: params.token },
    message: {
      from: params.from,
      to: params.to,
      value: value.toString(),
      validAfter: validAfter.toString(),
      validBefore: validBefore.toString(),
      nonce: nonce.toLowerCase(),
    },
  }
}

/**
 * The authorization of typed data built by `buildEip3009Authorization`, with bigints.
 * @throws AppError `INVALID_CONFIG` when `typedData.message` is not such a message (the field named).
 */
export function authorizationOf(typedData: Eip3009TypedData): Eip3009Authorization {
  requireObject(typedData, 'typedData')
  const message: unknown = typedData.message
  if (!isObjectLike(message)) throw invalidArgument('typedData.message', 'must be an object')
  const text = (field: 'from' | 'to' | 'nonce') => {
    const value = message[field]
    if (typeof value !== 'string')
      throw invalidArgument(`typedData.message.${field}`, 'must be a string')
    return value
  }
  return {
    from: text('from'),
    to: text('to'),
    value: uint(message.value, 'typedData.message.value'),
    validAfter: uint(message.validAfter, 'typedData.message.validAfter'),
    validBefore: uint(message.validBefore, 'typedData.message.validBefore'),
    nonce: text('nonce'),
  }
}
