import { bytesToHex } from '@noble/hashes/utils.js'
import { describe, expect, it } from 'vitest'
import { type AppError, isAppError } from '../../src/errors'
import {
  buildPairingUri,
  MAX_PAIRING_URI_LENGTH,
  PAIRING_URI_SCHEME,
  parsePairingUri,
  RELAY_PROTOCOL,
  SCOPE_PAIRING_VERSION,
} from '../../src/relay'

const TOPIC = 'ab'.repeat(32)
const KEY = Uint8Array.from({ length: 32 }, (_, i) => i)
const KEY_HEX = bytesToHex(KEY)
const RELAY = 'wss://relay.example.com/v1?region=eu'
const ENCODED_RELAY = encodeURIComponent(RELAY)

function uriWith(parts: { head?: string; query?: string }): string {
  const head = parts.head ?? `scope:${TOPIC}@1`
  const query = parts.query ?? `relay-url=${ENCODED_RELAY}&symKey=${KEY_HEX}&relay-protocol=scr`
  return `${head}?${query}`
}

/** Calls `fn`, expects an INVALID_CONFIG AppError naming `field`, and returns it. */
function expectInvalid(fn: () => unknown, field: string): AppError {
  let caught: unknown
  try {
    fn()
  } catch (error) {
    caught = error
  }
  expect(isAppError(caught, 'INVALID_CONFIG')).toBe(true)
  const error = caught as AppError
  expect(error.details?.[0]?.field).toBe(field)
  expect(error.message).toContain(field)
  return error
}

describe('constants', () => {
  it('match the source document', () => {
    expect(RELAY_PROTOCOL).toBe('scr')
    expect(SCOPE_PAIRING_VERSION).toBe(1)
    expect(PAIRING_URI_SCHEME).toBe('scope')
  })
})

describe('buildPairingUri', () => {
  it('assembles the exact documented shape', () => {
    expect(buildPairingUri(TOPIC, KEY, 'wss://relay.example.com')).toBe(
      `scope:${TOPIC}@1?relay-url=wss%3A%2F%2Frelay.example.com&symKey=${KEY_HEX}&relay-protocol=scr`,
    )
  })

  it('percent-encodes the relay url, including its own query', () => {
    const uri = buildPairingUri(TOPIC, KEY, RELAY)
    expect(uri).toContain(`relay-url=${ENCODED_RELAY}&`)
    expect(uri.split('?')).toHaveLength(2)
  })

  it('accepts ws:// for local development', () => {
    expect(buildPairingUri(TOPIC, KEY, 'ws://127.0.0.1:8787/api/v1/connect/relay')).toContain(
      'relay-url=ws%3A%2F%2F127.0.0.1%3A8787%2Fapi%2Fv1%2Fconnect%2Frelay',
    )
  })

  it.each([
    ['upper-case hex', TOPIC.toUpperCase()],
    ['too short', 'ab'.repeat(31)],
    ['too long', 'ab'.repeat(33)],
    ['not hex', 'zz'.repeat(32)],
    ['empty', ''],
    ['not a string', 42],
  ])('refuses a topic that is %s', (_, topic) => {
    expectInvalid(() => buildPairingUri(topic as string, KEY, RELAY), 'topic')
  })

  it.each([
    ['31 bytes', new Uint8Array(31)],
    ['33 bytes', new Uint8Array(33)],
    ['empty', new Uint8Array(0)],
    ['a hex string', KEY_HEX],
    ['a plain array', Array.from(KEY)],
    ['undefined', undefined],
  ])('refuses a symKeyP that is %s', (_, key) => {
    expectInvalid(() => buildPairingUri(TOPIC, key as Uint8Array, RELAY), 'symKeyP')
  })

  it.each([
    ['https', 'https://relay.example.com'],
    ['http', 'http://relay.example.com'],
    ['upper-case scheme', 'WSS://relay.example.com'],
    ['relative', '/relay'],
    ['no host', 'wss://'],
    ['garbage', 'not a url'],
    ['empty', ''],
    ['credentials', 'wss://user:pass@relay.example.com'],
    ['a fragment', 'wss://relay.example.com/#x'],
    ['whitespace', 'wss://relay.example.com/a b'],
    ['a newline', 'wss://relay.exa\nmple.com'],
    ['a lone surrogate', 'wss://relay.example.com/\uD800'],
    ['a bad port', 'wss://relay.example.com:99999'],
    ['not a string', { href: 'wss://relay.example.com' }],
  ])('refuses a relay url with %s', (_, url) => {
    expectInvalid(() => buildPairingUri(TOPIC, KEY, url as string), 'relayUrl')
  })

  it('refuses a relay url that makes the URI too long to parse', () => {
    const url = `wss://relay.example.com/${'a'.repeat(MAX_PAIRING_URI_LENGTH)}`
    expectInvalid(() => buildPairingUri(TOPIC, KEY, url), 'relayUrl')
  })

  it('never puts the key in an error message', () => {
    const error = expectInvalid(() => buildPairingUri(TOPIC, KEY, 'https://x.example'), 'relayUrl')
    expect(error.message).not.toContain(KEY_HEX)
  })
})

describe('parsePairingUri', () => {
  it('reads every part of a valid URI', () => {
    const parsed = parsePairingUri(buildPairingUri(TOPIC, KEY, RELAY))
    expect(parsed).toEqual({
      pairingTopic: TOPIC,
      version: 1,
      relayUrl: RELAY,
      symKeyP: KEY,
      relayProtocol: 'scr',
    })
    expect(parsed.symKeyP).toBeInstanceOf(Uint8Array)
  })

  it('accepts the parameters in any order', () => {
    const parsed = parsePairingUri(
      uriWith({ query: `relay-protocol=scr&symKey=${KEY_HEX}&relay-url=${ENCODED_RELAY}` }),
    )
    expect(parsed.relayUrl).toBe(RELAY)
    expect(parsed.symKeyP).toEqual(KEY)
  })

  it('compares the scheme case-insensitively (RFC 3986)', () => {
    expect(parsePairingUri(uriWith({ head: `SCOPE:${TOPIC}@1` })).pairingTopic).toBe(TOPIC)
  })

  it('accepts an upper-case symKey and returns the same bytes', () => {
    const uri = uriWith({
      query: `relay-url=${ENCODED_RELAY}&symKey=${KEY_HEX.toUpperCase()}&relay-protocol=scr`,
    })
    expect(parsePairingUri(uri).symKeyP).toEqual(KEY)
  })

  it('ignores unknown parameters and empty segments', () => {
    const uri = uriWith({
      query: `expiryTimestamp=1700000000&relay-url=${ENCODED_RELAY}&&symKey=${KEY_HEX}&relay-protocol=scr&flag&`,
    })
    expect(parsePairingUri(uri).pairingTopic).toBe(TOPIC)
  })

  it('does not treat + as a space', () => {
    const url = 'wss://relay.example.com/a+b'
    expect(parsePairingUri(buildPairingUri(TOPIC, KEY, url)).relayUrl).toBe(url)
    const raw = uriWith({ query: `relay-url=${url}&symKey=${KEY_HEX}&relay-protocol=scr` })
    expect(parsePairingUri(raw).relayUrl).toBe(url)
  })

  it.each([
    ['no scheme', `${TOPIC}@1?relay-url=x`],
    ['WalletConnect scheme', uriWith({ head: `wc:${TOPIC}@2` })],
    ['another scheme', uriWith({ head: `scopes:${TOPIC}@1` })],
    ['scheme with space', uriWith({ head: ` scope:${TOPIC}@1` })],
    ['empty string', ''],
  ])('names the scheme: %s', (_, uri) => {
    expectInvalid(() => parsePairingUri(uri), 'scheme')
  })

  it.each([
    ['missing', `scope:${TOPIC}?relay-url=x`],
    ['2', uriWith({ head: `scope:${TOPIC}@2` })],
    ['0', uriWith({ head: `scope:${TOPIC}@0` })],
    ['01', uriWith({ head: `scope:${TOPIC}@01` })],
    ['1.0', uriWith({ head: `scope:${TOPIC}@1.0` })],
    ['empty', uriWith({ head: `scope:${TOPIC}@` })],
    ['huge', uriWith({ head: `scope:${TOPIC}@99999999999999999999` })],
    ['a path after it', uriWith({ head: `scope:${TOPIC}@1/x` })],
  ])('names the version when it is %s', (_, uri) => {
    expectInvalid(() => parsePairingUri(uri), 'version')
  })

  it.each([
    ['upper-case', uriWith({ head: `scope:${TOPIC.toUpperCase()}@1` })],
    ['short', uriWith({ head: `scope:${'ab'.repeat(31)}@1` })],
    ['long', uriWith({ head: `scope:${'ab'.repeat(33)}@1` })],
    ['empty', uriWith({ head: 'scope:@1' })],
    ['with slashes', uriWith({ head: `scope://${TOPIC}@1` })],
    ['with a second @', uriWith({ head: `scope:x@${TOPIC}@1` })],
  ])('names the topic when it is %s', (_, uri) => {
    expectInvalid(() => parsePairingUri(uri), 'topic')
  })

  it('names the query when there is none', () => {
    expectInvalid(() => parsePairingUri(`scope:${TOPIC}@1`), 'query')
  })

  it('refuses a fragment', () => {
    expectInvalid(() => parsePairingUri(`${uriWith({})}#frag`), 'fragment')
  })

  it('refuses input longer than the limit', () => {
    expectInvalid(() => parsePairingUri(`${uriWith({})}&x=${'a'.repeat(4096)}`), 'uri')
  })

  it.each([
    ['https', 'https%3A%2F%2Frelay.example.com'],
    ['http', 'http%3A%2F%2Frelay.example.com'],
    ['no host', 'wss%3A%2F%2F'],
    ['garbage', 'hello'],
    ['empty', ''],
    ['javascript', 'javascript%3Aalert(1)'],
    ['credentials', encodeURIComponent('wss://a:b@relay.example.com')],
    ['encoded newline', 'wss%3A%2F%2Frelay.exa%0Ample.com'],
    ['encoded fragment', 'wss%3A%2F%2Frelay.example.com%23x'],
    ['bad percent-encoding', 'wss%3A%2F%2Frelay.example.com%ZZ'],
    ['encoded lone surrogate', 'wss%3A%2F%2Fr.example%ED%A0%80'],
  ])('names the relay-url when it is %s', (_, encoded) => {
    expectInvalid(
      () =>
        parsePairingUri(
          uriWith({ query: `relay-url=${encoded}&symKey=${KEY_HEX}&relay-protocol=scr` }),
        ),
      'relay-url',
    )
  })

  it.each([
    ['31 bytes', KEY_HEX.slice(0, 62)],
    ['33 bytes', `${KEY_HEX}00`],
    ['odd length', KEY_HEX.slice(0, 63)],
    ['not hex', 'g'.repeat(64)],
    ['0x-prefixed', `0x${KEY_HEX.slice(2)}`],
    ['empty', ''],
  ])('names the symKey when it is %s', (_, symKey) => {
    const error = expectInvalid(
      () =>
        parsePairingUri(
          uriWith({ query: `relay-url=${ENCODED_RELAY}&symKey=${symKey}&relay-protocol=scr` }),
        ),
      'symKey',
    )
    if (symKey !== '') expect(error.message).not.toContain(symKey)
  })

  it.each([
    ['irn', 'irn'],
    ['upper-case', 'SCR'],
    ['empty', ''],
  ])('names the relay-protocol when it is %s', (_, protocol) => {
    const error = expectInvalid(
      () =>
        parsePairingUri(
          uriWith({
            query: `relay-url=${ENCODED_RELAY}&symKey=${KEY_HEX}&relay-protocol=${protocol}`,
          }),
        ),
      'relay-protocol',
    )
    if (protocol === 'irn') expect(error.message).toContain('not compatible')
  })

  it.each([
    ['relay-url', `symKey=${KEY_HEX}&relay-protocol=scr`],
    ['symKey', `relay-url=${ENCODED_RELAY}&relay-protocol=scr`],
    ['relay-protocol', `relay-url=${ENCODED_RELAY}&symKey=${KEY_HEX}`],
  ])('names a missing %s', (field, query) => {
    expectInvalid(() => parsePairingUri(uriWith({ query })), field)
  })

  it.each([
    ['relay-url', `relay-url&symKey=${KEY_HEX}&relay-protocol=scr`],
    ['symKey', `relay-url=${ENCODED_RELAY}&symKey&relay-protocol=scr`],
  ])('names a %s without a value', (field, query) => {
    expectInvalid(() => parsePairingUri(uriWith({ query })), field)
  })

  it.each([
    ['relay-url', `relay-url=${ENCODED_RELAY}&relay-url=${ENCODED_RELAY}`],
    ['symKey', `symKey=${KEY_HEX}&symKey=${'00'.repeat(32)}`],
    ['relay-protocol', 'relay-protocol=scr&relay-protocol=scr'],
  ])('refuses a duplicate %s, even with the same value', (field, duplicated) => {
    const base = `relay-url=${ENCODED_RELAY}&symKey=${KEY_HEX}&relay-protocol=scr`
    const query = `${base
      .split('&')
      .filter((p) => !p.startsWith(`${field}=`))
      .join('&')}&${duplicated}`
    expectInvalid(() => parsePairingUri(uriWith({ query })), field)
  })

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a number', 42],
    ['an object', { uri: uriWith({}) }],
    ['a String object', new String(uriWith({}))],
  ])('refuses %s as input', (_, input) => {
    expectInvalid(() => parsePairingUri(input as string), 'uri')
  })
})

describe('expiryTimestamp', () => {
  const topic = 'a'.repeat(64)
  const key = new Uint8Array(32).fill(7)
  const relay = 'wss://relay.example.com/api/v1/connect/relay'

  it('is written when given and read back as a number', () => {
    const uri = buildPairingUri(topic, key, relay, 1_800_000_000)
    expect(uri.endsWith('&expiryTimestamp=1800000000')).toBe(true)
    expect(parsePairingUri(uri).expiryTimestamp).toBe(1_800_000_000)
    expect('expiryTimestamp' in parsePairingUri(buildPairingUri(topic, key, relay))).toBe(false)
  })

  it('refuses a value that is not a non-negative decimal integer', () => {
    expect(() => buildPairingUri(topic, key, relay, -1)).toThrow(/expiryTimestamp/)
    expect(() => buildPairingUri(topic, key, relay, 1.5)).toThrow(/expiryTimestamp/)
    const base = buildPairingUri(topic, key, relay)
    for (const bad of ['abc', '-1', '1.5', '01', '']) {
      expect(() => parsePairingUri(`${base}&expiryTimestamp=${bad}`)).toThrow(/expiryTimestamp/)
    }
  })
})
