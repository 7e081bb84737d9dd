import { describe, expect, it } from 'vitest'
import { buildSignedMessageEnvelope } from '../src/wire/envelope'

describe('buildSignedMessageEnvelope', () => {
  it('serializes session, nonce, walletAddress, timestamp in that exact order', () => {
    expect(
      buildSignedMessageEnvelope(
        'c2Vzc2lvbi1pZC0xMjM0NTY3OA',
        'bm9uY2UtMTIzNDU2',
        '0xAbCdEf0123456789aBCdEf0123456789abcDEF01',
        1_767_225_600_000,
      ),
    ).toBe(
      '{"session":"c2Vzc2lvbi1pZC0xMjM0NTY3OA","nonce":"bm9uY2UtMTIzNDU2",' +
        '"walletAddress":"0xAbCdEf0123456789aBCdEf0123456789abcDEF01","timestamp":1767225600000}',
    )
  })

  it('writes the timestamp as a JSON number, not a string', () => {
    const json = buildSignedMessageEnvelope('s', 'n', 'w', 42)
    expect(json.endsWith('"timestamp":42}')).toBe(true)
    expect(typeof JSON.parse(json).timestamp).toBe('number')
  })

  it('escapes quotes, backslashes and control characters so a value cannot add a key', () => {
    const session = 's","walletAddress":"attacker'
    const nonce = 'n\\"\n\u2028'
    const json = buildSignedMessageEnvelope(session, nonce, '0xabc', 1)
    expect(json).toBe(
      '{"session":"s\\",\\"walletAddress\\":\\"attacker","nonce":"n\\\\\\"\\n\u2028",' +
        '"walletAddress":"0xabc","timestamp":1}',
    )
    const parsed = JSON.parse(json)
    expect(Object.keys(parsed)).toEqual(['session', 'nonce', 'walletAddress', 'timestamp'])
    expect(parsed).toEqual({ session, nonce, walletAddress: '0xabc', timestamp: 1 })
  })

  it('round-trips through JSON.parse for unicode values', () => {
    const values = {
      session: 'séssion-🔑',
      nonce: '\u0000\u001f',
      walletAddress: 'Ѐ',
      timestamp: 0,
    }
    const json = buildSignedMessageEnvelope(
      values.session,
      values.nonce,
      values.walletAddress,
      values.timestamp,
    )
    expect(JSON.parse(json)).toEqual(values)
    expect(json).toContain('\\u0000\\u001f')
  })
})
