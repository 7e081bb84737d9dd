import { describe, expect, it } from 'vitest'
import { formatUnits, shorten } from '../../src/ui/lazy/format'

describe('what the elements show', () => {
  it('shortens an address, a signature or a Solana key to its ends', () => {
    expect(shorten('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')).toBe('0xf39F…2266')
    expect(shorten('7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV')).toBe('7EcD…FLtV')
    expect(shorten('0x1234')).toBe('0x1234')
  })

  it('formats a balance in whole units with up to four decimals, trailing zeros dropped', () => {
    expect(formatUnits(10_000n * 10n ** 18n, 18)).toBe('10000')
    expect(formatUnits(1_234_567_890_000_000_000n, 18)).toBe('1.2345')
    expect(formatUnits(500_000n, 6)).toBe('0.5')
    expect(formatUnits(1n, 18)).toBe('0')
    expect(formatUnits(42n, 0)).toBe('42')
  })
})
