import { encodeAbiParameters, pad, stringToHex } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  buildEip3009Authorization,
  decodeAbiString,
  readContract,
  splitSignature,
} from '../../src/eip3009'
import { isAppError } from '../../src/errors'

const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const FROM = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const TO = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'
const abiString = (text: string) => encodeAbiParameters([{ type: 'string' }], [text])

describe('ABI string decoding', () => {
  it('decodes (string) as viem encodes it, Unicode and long values included', () => {
    for (const text of ['USD Coin', '2', '', 'Ünïcødé ✓ token', 'x'.repeat(100)]) {
      expect(decodeAbiString(abiString(text))).toBe(text)
    }
  })

  it('decodes a bytes32 name (older tokens)', () => {
    expect(decodeAbiString(pad(stringToHex('Maker'), { dir: 'right', size: 32 }))).toBe('Maker')
  })

  it('refuses answers that are not a string getter', () => {
    const cases = ['0x', 'nothex', '0x1234', `${abiString('abc').slice(0, -64)}`]
    const badOffset = `0x${'ff'.repeat(32)}${'00'.repeat(64)}`
    for (const data of [...cases, badOffset]) {
      try {
        decodeAbiString(data, 'version')
        throw new Error(`accepted ${data}`)
      } catch (error) {
        expect(isAppError(error, 'RPC_ERROR')).toBe(true)
        expect((error as { details?: Array<{ field: string }> }).details?.[0]?.field).toBe(
          'version',
        )
      }
    }
  })
})

describe('contract reads', () => {
  it('takes an EIP-1193 provider or { call }, and refuses non-hex answers', async () => {
    const calls: unknown[] = []
    const provider = {
      request: async (args: { method: string; params?: unknown }) => {
        calls.push(args)
        return '0x01'
      },
    }
    expect(await readContract(provider, TOKEN, '0x06fdde03')).toBe('0x01')
    expect(calls).toEqual([
      { method: 'eth_call', params: [{ to: TOKEN, data: '0x06fdde03' }, 'latest'] },
    ])
    expect(await readContract({ call: async () => ({ data: '0xab' }) }, TOKEN, '0x')).toBe('0xab')
    await expect(
      readContract({ call: async () => ({}) as never }, TOKEN, '0x'),
    ).rejects.toMatchObject({
      code: 'RPC_ERROR',
    })
    await expect(
      readContract({ request: async () => Promise.reject(new Error('down')) }, TOKEN, '0x'),
    ).rejects.toMatchObject({ code: 'RPC_ERROR' })
  })
})

describe('buildEip3009Authorization', () => {
  const reader = {
    call: async ({ data }: { to: string; data: string }) =>
      data === '0x06fdde03' ? abiString('USD Coin') : abiString('2'),
  }
  const base = { token: TOKEN, chainId: 8453, from: FROM, to: TO, value: 1n, reader }

  it('defaults: valid from 0 until now + 1 h, a random 32-byte nonce', async () => {
    const now = 1_800_000_000_000
    const a = await buildEip3009Authorization({ ...base, now: () => now })
    const b = await buildEip3009Authorization({ ...base, now: () => now })
    expect(a.message.validAfter).toBe('0')
    expect(a.message.validBefore).toBe(String(now / 1000 + 3600))
    expect(a.message.nonce).not.toBe(b.message.nonce)
    expect(a.domain).toEqual({
      name: 'USD Coin',
      version: '2',
      chainId: 8453,
      verifyingContract: TOKEN,
    })
  })

  it.each([
    ['token', { token: '0x123' }],
    ['from', { from: 'alice' }],
    ['value', { value: -1n }],
    ['value', { value: 2n ** 256n }],
    ['value', { value: '1.5' }],
    ['chainId', { chainId: 'solana:x' }],
    ['validBefore', { validAfter: 10, validBefore: 10 }],
    ['nonce', { nonce: '0x1234' }],
  ])('refuses a bad %s with INVALID_CONFIG', async (field, patch) => {
    const error = await buildEip3009Authorization({ ...base, ...(patch as object) }).catch((e) => e)
    expect(isAppError(error, 'INVALID_CONFIG')).toBe(true)
    expect(error.details[0].field).toBe(field)
  })
})

describe('splitSignature', () => {
  const r = 'a'.repeat(64)
  const s = 'b'.repeat(64)
  it('splits r, s, v and lifts v 0/1 to 27/28', () => {
    expect(splitSignature(`0x${r}${s}1b`)).toEqual({ v: 27, r: `0x${r}`, s: `0x${s}` })
    expect(splitSignature(`0x${r}${s}01`).v).toBe(28)
  })
  it('refuses other lengths and v values', () => {
    expect(() => splitSignature(`0x${r}${s}`)).toThrow(/65 bytes/)
    expect(() => splitSignature(`0x${r}${s}1d`)).toThrow(/unexpected v/)
  })
})
