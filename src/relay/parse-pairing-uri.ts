import { hexToBytes } from '@noble/hashes/utils.js'
import { AppError, isAppError } from '../errors'
import {
  MAX_PAIRING_URI_LENGTH,
  PAIRING_URI_SCHEME,
  RELAY_PROTOCOL,
  SCOPE_PAIRING_VERSION,
} from './constants'
import type { ParsedPairingUri } from './types'
import { PAIRING_TOPIC_PATTERN, pairingError, relayUrlProblem } from './validate'

const CONTEXT = 'Malformed pairing URI'
const SYM_KEY_PATTERN = /^[0-9a-fA-F]{64}$/
const VERSION_PATTERN = /^[1-9][0-9]{0,8}$/
const KNOWN_PARAMS = ['relay-url', 'symKey', 'relay-protocol', 'expiryTimestamp'] as const
const EXPIRY_PATTERN = /^(0|[1-9][0-9]{0,14})$/
type KnownParam = (typeof KNOWN_PARAMS)[number]

function fail(field: string, reason: string): never {
  throw pairingError(CONTEXT, field, reason)
}

function isKnownParam(name: string): name is KnownParam {
  return (KNOWN_PARAMS as readonly string[]).includes(name)
}

/** Reads the query: known names once each, percent-decoded; unknown names ignored. */
function readParams(query: string): Partial<Record<KnownParam, string>> {
  const params: Partial<Record<KnownParam, string>> = {}
  for (const segment of query.split('&')) {
    if (segment === '') continue
    const eq = segment.indexOf('=')
    const name = eq < 0 ? segment : segment.slice(0, eq)
    if (!isKnownParam(name)) continue
    if (params[name] !== undefined) fail(name, 'appears more than once')
    if (eq < 0) fail(name, 'has no value')
    let value: string
    try {
      value = decodeURIComponent(segment.slice(eq + 1))
    } catch {
      return fail(name, 'is not valid percent-encoding')
    }
    params[name] = value
  }
  return params
}

function parse(uri: unknown): ParsedPairingUri {
  if (typeof uri !== 'string') fail('uri', 'must be a string')
  if (uri.length > MAX_PAIRING_URI_LENGTH) {
    fail('uri', `must be at most ${MAX_PAIRING_URI_LENGTH} characters`)
  }
  const colon = uri.indexOf(':')
  if (colon < 0 || uri.slice(0, colon).toLowerCase() !== PAIRING_URI_SCHEME) {
    fail('scheme', `must be "${PAIRING_URI_SCHEME}:"`)
  }
  const rest = uri.slice(colon + 1)
  if (rest.includes('#')) fail('fragment', 'is not allowed')
  const question = rest.indexOf('?')
  if (question < 0) fail('query', 'is missing (relay-url, symKey and relay-protocol are required)')
  const path = rest.slice(0, question)
  const at = path.indexOf('@')
  if (at < 0) fail('version', `is missing (expected "@${SCOPE_PAIRING_VERSION}" after the topic)`)

  const pairingTopic = path.slice(0, at)
  if (!PAIRING_TOPIC_PATTERN.test(pairingTopic)) {
    fail('topic', 'must be 32 bytes as 64 lower-case hex digits')
  }
  const versionText = path.slice(at + 1)
  if (!VERSION_PATTERN.test(versionText)) fail('version', 'must be a positive decimal integer')
  const version = Number(versionText)
  if (version !== SCOPE_PAIRING_VERSION) {
    fail('version', `${version} is not supported (expected ${SCOPE_PAIRING_VERSION})`)
  }

  const params = readParams(rest.slice(question + 1))
  const relayProtocol = params['relay-protocol']
  if (relayProtocol === undefined) fail('relay-protocol', 'is missing')
  if (relayProtocol !== RELAY_PROTOCOL) {
    fail(
      'relay-protocol',
      relayProtocol === 'irn'
        ? 'is "irn" (WalletConnect), which is not compatible with "scr"'
        : `must be "${RELAY_PROTOCOL}"`,
    )
  }
  const relayUrl = params['relay-url']
  if (relayUrl === undefined) fail('relay-url', 'is missing')
  const problem = relayUrlProblem(relayUrl)
  if (problem !== null) fail('relay-url', problem)
  const symKey = params.symKey
  if (symKey === undefined) fail('symKey', 'is missing')
  if (!SYM_KEY_PATTERN.test(symKey)) fail('symKey', 'must be exactly 32 bytes as 64 hex digits')

  const expiry = params.expiryTimestamp
  if (expiry !== undefined && !EXPIRY_PATTERN.test(expiry)) {
    fail('expiryTimestamp', 'must be a non-negative decimal integer (Unix seconds)')
  }

  return {
    pairingTopic,
    version,
    relayUrl,
    symKeyP: hexToBytes(symKey.toLowerCase()),
    relayProtocol,
    ...(expiry === undefined ? {} : { expiryTimestamp: Number(expiry) }),
  }
}

/**
 * Reads a pairing URI `scope:{topic}@1?relay-url=…&symKey=…&relay-protocol=scr`.
 *
 * Rules (see docs/pairing.md): the scheme is compared case-insensitively, everything else exactly;
 * the topic is 64 lower-case hex digits; the version is `1`; `relay-url` (percent-decoded) begins
 * with `ws://` or `wss://`; `symKey` is 64 hex digits of either case; `relay-protocol` is `scr`.
 * Each known parameter must appear exactly once; unknown parameters are ignored (forward
 * compatibility); a fragment is refused; at most 4096 characters. The optional `expiryTimestamp`
 * (Unix seconds, decimal) is read but not compared with the clock: the wallet decides.
 *
 * @throws AppError `INVALID_CONFIG` for every format violation, with `details[0].field` naming the
 * broken part (`uri`, `scheme`, `fragment`, `query`, `topic`, `version`, `relay-url`, `symKey`,
 * `relay-protocol`, `expiryTimestamp`). It throws nothing else, for any input. Messages never echo the key.
 */
export function parsePairingUri(uri: string): ParsedPairingUri {
  try {
    return parse(uri)
  } catch (error) {
    if (isAppError(error)) throw error
    // Defensive: no other error is expected, but the contract is "AppError only".
    throw new AppError('INVALID_CONFIG', `${CONTEXT}.`, { cause: error })
  }
}
