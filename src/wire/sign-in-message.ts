import { keccak_256 } from '@noble/hashes/sha3.js'
import * as z from 'zod/mini'
import { AppError } from '../errors/app-error'
import { parseParameters } from './parse-parameters'

// Sign-In with Ethereum (EIP-4361) and Sign-In With Solana (the Solana Wallet Standard's
// `solana:signIn` text, as Phantom builds it): one text format for both, built by the library and
// parsed by the backend, so the two can never disagree on a message.

/** The chain families a sign-in message is for. */
export type SignInNamespace = 'eip155' | 'solana'

const HEADER = {
  eip155: ' wants you to sign in with your Ethereum account:',
  solana: ' wants you to sign in with your Solana account:',
} as const

const DOMAIN =
  /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)*[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?::[0-9]{1,5})?$/
const NONCE = /^[a-zA-Z0-9]{8,128}$/
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/
const URI = /^[a-zA-Z][a-zA-Z0-9+.-]*:[^\s]*$/
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/
const SOLANA_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/
const NO_LINE_BREAK = /^[^\n\r]*$/

const dateTime = /* @__PURE__ */ z.string().check(
  /* @__PURE__ */ z.regex(DATE_TIME, 'must be an RFC 3339 date-time'),
  /* @__PURE__ */ z.refine((v) => !Number.isNaN(Date.parse(v)), 'must be a real date-time'),
)
const uri = /* @__PURE__ */ z
  .string()
  .check(/* @__PURE__ */ z.maxLength(2048), /* @__PURE__ */ z.regex(URI, 'must be an RFC 3986 URI'))

/**
 * The fields of a sign-in message (EIP-4361 for `eip155`, Sign-In With Solana for `solana`).
 * Date-times are RFC 3339 strings (`new Date().toISOString()`); `chainId` is the EIP-155 number
 * on EVM and the SIWS chain (`mainnet`, `devnet`, `testnet`, `localnet` or a CAIP-2 id) on Solana.
 */
export const SignInMessageSchema = /* @__PURE__ */ z.object({
  namespace: /* @__PURE__ */ z.enum(['eip155', 'solana']),
  /** RFC 3986 authority of the site asking (`example.com`, `localhost:3000`). */
  domain: /* @__PURE__ */ z
    .string()
    .check(/* @__PURE__ */ z.regex(DOMAIN, 'must be a host[:port]')),
  address: /* @__PURE__ */ z.string(),
  statement: /* @__PURE__ */ z.optional(
    /* @__PURE__ */ z
      .string()
      .check(
        /* @__PURE__ */ z.minLength(1),
        /* @__PURE__ */ z.maxLength(1024),
        /* @__PURE__ */ z.regex(NO_LINE_BREAK, 'must be one line'),
      ),
  ),
  uri,
  version: /* @__PURE__ */ z.literal('1'),
  chainId: /* @__PURE__ */ z.union([
    /* @__PURE__ */ z.int().check(/* @__PURE__ */ z.positive()),
    /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.regex(/^[a-zA-Z0-9:_-]{1,80}$/)),
  ]),
  nonce: /* @__PURE__ */ z
    .string()
    .check(/* @__PURE__ */ z.regex(NONCE, 'must be 8 to 128 letters and digits')),
  issuedAt: dateTime,
  expirationTime: /* @__PURE__ */ z.optional(dateTime),
  notBefore: /* @__PURE__ */ z.optional(dateTime),
  requestId: /* @__PURE__ */ z.optional(
    /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.regex(NO_LINE_BREAK, 'must be one line')),
  ),
  resources: /* @__PURE__ */ z.optional(
    /* @__PURE__ */ z.array(uri).check(/* @__PURE__ */ z.maxLength(64)),
  ),
})

/** The fields of a sign-in message (see `SignInMessageSchema`). */
export type SignInMessage = z.infer<typeof SignInMessageSchema>

/**
 * `0x…` with the EIP-55 mixed-case checksum.
 * @throws `INVALID_CONFIG` when `address` is not a 0x address of 20 bytes.
 */
export function checksumAddress(address: string): string {
  if (typeof address !== 'string' || !EVM_ADDRESS.test(address)) {
    throw new AppError('INVALID_CONFIG', 'Invalid address: must be a 0x address of 20 bytes.', {
      details: [{ field: 'address', reason: 'must be a 0x address of 20 bytes' }],
    })
  }
  const lower = address.slice(2).toLowerCase()
  const hash = keccak_256(new TextEncoder().encode(lower))
  let out = '0x'
  for (let i = 0; i < 40; i++) {
    const nibble = ((hash[i >> 1] as number) >> (i % 2 === 0 ? 4 : 0)) & 0xf
    const char = lower[i] as string
    out += nibble >= 8 ? char.toUpperCase() : char
  }
  return out
}

function checkAddress(message: SignInMessage): SignInMessage {
  if (message.namespace === 'eip155') {
    if (!EVM_ADDRESS.test(message.address)) throw addressError('must be a 0x address of 20 bytes')
    if (typeof message.chainId !== 'number') throw chainError('must be an EIP-155 chain number')
    return { ...message, address: checksumAddress(message.address) }
  }
  if (!SOLANA_ADDRESS.test(message.address)) throw addressError('must be a base58 public key')
  return message
}

const addressError = (reason: string) =>
  new AppError('INVALID_CONFIG', `Invalid message.address: ${reason}.`, {
    details: [{ field: 'message.address', reason }],
  })
const chainError = (reason: string) =>
  new AppError('INVALID_CONFIG', `Invalid message.chainId: ${reason}.`, {
    details: [{ field: 'message.chainId', reason }],
  })

/**
 * The text of a sign-in message: EIP-4361 for `eip155` (the same text as viem's
 * `createSiweMessage`; the address in its EIP-55 form), the Sign-In With Solana text for `solana`
 * (as the Wallet Standard's `solana:signIn` builds it). Nothing is sent.
 * @throws `INVALID_CONFIG` naming each wrong field in `details` (a domain that is no host, a
 * statement over two lines, a nonce shorter than 8 characters, a date-time that is not RFC 3339…).
 */
export function buildSignInMessage(message: SignInMessage): string {
  const m = checkAddress(parseParameters(SignInMessageSchema, message, 'message'))
  const lines = [`${m.domain}${HEADER[m.namespace]}`, m.address]
  // EIP-4361: address LF LF [statement LF] LF "URI: "; SIWS: the statement after one blank line.
  if (m.statement !== undefined) lines.push('', m.statement)
  else if (m.namespace === 'eip155') lines.push('')
  lines.push(
    '',
    `URI: ${m.uri}`,
    `Version: ${m.version}`,
    `Chain ID: ${m.chainId}`,
    `Nonce: ${m.nonce}`,
    `Issued At: ${m.issuedAt}`,
  )
  if (m.expirationTime !== undefined) lines.push(`Expiration Time: ${m.expirationTime}`)
  if (m.notBefore !== undefined) lines.push(`Not Before: ${m.notBefore}`)
  if (m.requestId !== undefined) lines.push(`Request ID: ${m.requestId}`)
  if (m.resources !== undefined) lines.push('Resources:', ...m.resources.map((r) => `- ${r}`))
  return lines.join('\n')
}

const FIELDS = [
  ['URI', 'uri'],
  ['Version', 'version'],
  ['Chain ID', 'chainId'],
  ['Nonce', 'nonce'],
  ['Issued At', 'issuedAt'],
  ['Expiration Time', 'expirationTime'],
  ['Not Before', 'notBefore'],
  ['Request ID', 'requestId'],
] as const

function malformed(reason: string): AppError {
  return new AppError('INVALID_CONFIG', `Invalid message: ${reason}.`, {
    details: [{ field: 'message', reason }],
  })
}

/**
 * The fields of a sign-in message's text (EIP-4361 or Sign-In With Solana), checked as
 * `buildSignInMessage` checks them; `buildSignInMessage(parseSignInMessage(text))` is `text`
 * again for every text it accepts.
 * @throws `INVALID_CONFIG` when `text` is not such a message (`details` names the field).
 */
export function parseSignInMessage(text: string): SignInMessage {
  if (typeof text !== 'string' || text.length > 16_384) throw malformed('must be a sign-in text')
  const lines = text.split('\n')
  const head = lines[0] ?? ''
  const namespace: SignInNamespace | undefined = head.endsWith(HEADER.eip155)
    ? 'eip155'
    : head.endsWith(HEADER.solana)
      ? 'solana'
      : undefined
  if (!namespace) throw malformed('the first line is no sign-in header')
  const domain = head.slice(0, head.length - HEADER[namespace].length)
  const address = lines[1] ?? ''
  let i = 2
  if (lines[i] !== '') throw malformed('a blank line must follow the address')
  i++
  let statement: string | undefined
  if (namespace === 'eip155' && lines[i] === '') {
    i++ // no statement: an empty line in its place
  } else if (!(lines[i] ?? '').startsWith('URI: ')) {
    statement = lines[i]
    i++
    if (lines[i] !== '') throw malformed('a blank line must follow the statement')
    i++
  }
  const fields: Record<string, unknown> = { namespace, domain, address }
  if (statement !== undefined) fields.statement = statement
  let f = 0
  for (; i < lines.length; i++) {
    const line = lines[i] as string
    if (line === 'Resources:') {
      fields.resources = lines.slice(i + 1).map((r) => {
        if (!r.startsWith('- ')) throw malformed('a resource line must start with "- "')
        return r.slice(2)
      })
      i = lines.length
      break
    }
    while (f < FIELDS.length && !line.startsWith(`${(FIELDS[f] as readonly string[])[0]}: `)) f++
    const field = FIELDS[f]
    if (!field) throw malformed(`unexpected line "${line.slice(0, 40)}"`)
    const value = line.slice(field[0].length + 2)
    fields[field[1]] =
      field[1] === 'chainId' && namespace === 'eip155' && /^[0-9]{1,16}$/.test(value)
        ? Number(value)
        : value
    f++
  }
  const parsed = checkAddress(parseParameters(SignInMessageSchema, fields, 'message'))
  if (buildSignInMessage(parsed) !== text) throw malformed('not in its canonical form')
  return parsed
}
