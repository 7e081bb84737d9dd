import * as fc from 'fast-check'
import { createSiweMessage, parseSiweMessage } from 'viem/siwe'
import { describe, expect, it } from 'vitest'
import { isAppError } from '../../src/errors'
import { buildSignInMessage, parseSignInMessage, type SignInMessage } from '../../src/wire'

// The EIP-4361 text is viem's, byte for byte, and parse(build(m)) is m: for any fields.

const alnum = fc.stringMatching(/^[a-zA-Z0-9]{8,40}$/)
const host = fc.constantFrom('example.com', 'app.example.org', 'localhost:3000', 'sub.site.io:8443')
const line = fc.stringMatching(/^[a-zA-Z0-9 .,!?'-]{1,60}$/)
const date = fc
  .integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) })
  .map((ms) => new Date(ms).toISOString())
const address = fc
  .uint8Array({ minLength: 20, maxLength: 20 })
  .map((bytes) => `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`)

const evmMessage = fc.record(
  {
    namespace: fc.constant('eip155' as const),
    domain: host,
    address,
    statement: line,
    uri: fc.constantFrom('https://example.com/login', 'http://localhost:3000', 'ipfs://bafy'),
    version: fc.constant('1' as const),
    chainId: fc.integer({ min: 1, max: 2 ** 40 }),
    nonce: alnum,
    issuedAt: date,
    expirationTime: date,
    notBefore: date,
    requestId: line,
    resources: fc.array(fc.constantFrom('https://a.example/x', 'ipfs://cid', 'urn:x:y'), {
      minLength: 1,
      maxLength: 3,
    }),
  },
  {
    requiredKeys: [
      'namespace',
      'domain',
      'address',
      'uri',
      'version',
      'chainId',
      'nonce',
      'issuedAt',
    ],
  },
)

describe('buildSignInMessage / parseSignInMessage', () => {
  it('behavior: the EIP-4361 text equals viem createSiweMessage, and parses back to its fields', () => {
    fc.assert(
      fc.property(evmMessage, (message) => {
        const text = buildSignInMessage(message)
        const viem = createSiweMessage({
          ...message,
          address: message.address as `0x${string}`,
          issuedAt: new Date(message.issuedAt),
          ...(message.expirationTime ? { expirationTime: new Date(message.expirationTime) } : {}),
          ...(message.notBefore ? { notBefore: new Date(message.notBefore) } : {}),
        } as Parameters<typeof createSiweMessage>[0])
        expect(text).toBe(viem)
        expect(parseSiweMessage(text).nonce).toBe(message.nonce)
        const parsed = parseSignInMessage(text)
        expect(parsed).toEqual({ ...message, address: parsed.address })
        expect(parsed.address.toLowerCase()).toBe(message.address)
      }),
      { numRuns: 200 },
    )
  })

  it('behavior: a Sign-In With Solana text (Phantom / Wallet Standard form) round-trips', () => {
    const fields: SignInMessage = {
      namespace: 'solana',
      domain: 'localhost:3000',
      address: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
      statement: 'Sign in to the dApp.',
      uri: 'http://localhost:3000',
      version: '1',
      chainId: 'devnet',
      nonce: 'abcdef123456',
      issuedAt: '2026-11-28T20:00:00.000Z',
      resources: ['https://example.com/terms'],
    }
    const text = buildSignInMessage(fields)
    expect(text).toBe(
      [
        'localhost:3000 wants you to sign in with your Solana account:',
        '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
        '',
        'Sign in to the dApp.',
        '',
        'URI: http://localhost:3000',
        'Version: 1',
        'Chain ID: devnet',
        'Nonce: abcdef123456',
        'Issued At: 2026-11-28T20:00:00.000Z',
        'Resources:',
        '- https://example.com/terms',
      ].join('\n'),
    )
    expect(parseSignInMessage(text)).toEqual(fields)
  })

  it('error: bad fields and texts are INVALID_CONFIG naming the field, never a TypeError', () => {
    const base = {
      namespace: 'eip155' as const,
      domain: 'example.com',
      address: '0x'.padEnd(42, 'a'),
      uri: 'https://example.com',
      version: '1' as const,
      chainId: 1,
      nonce: 'abcdefgh',
      issuedAt: '2026-11-28T20:00:00.000Z',
    }
    const fieldOf = (run: () => unknown) => {
      try {
        run()
        return 'built'
      } catch (error) {
        return isAppError(error, 'INVALID_CONFIG') ? error.details?.[0]?.field : String(error)
      }
    }
    expect(fieldOf(() => buildSignInMessage({ ...base, nonce: 'short' }))).toBe('message.nonce')
    expect(fieldOf(() => buildSignInMessage({ ...base, statement: 'a\nb' }))).toBe(
      'message.statement',
    )
    expect(fieldOf(() => buildSignInMessage({ ...base, domain: 'a b' }))).toBe('message.domain')
    expect(fieldOf(() => buildSignInMessage({ ...base, issuedAt: 'yesterday' }))).toBe(
      'message.issuedAt',
    )
    expect(fieldOf(() => buildSignInMessage({ ...base, address: '0x12' }))).toBe('message.address')
    expect(fieldOf(() => buildSignInMessage(null as never))).toBe('message')
    for (const text of ['', 'hello', `${buildSignInMessage(base)}\nExtra: 1`, 42 as never]) {
      expect(fieldOf(() => parseSignInMessage(text))).toMatch(/^message/)
    }
  })
})
