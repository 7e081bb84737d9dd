import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createLogger, redact, setConsoleLogging, setDebugMode } from '../src/logging'

const log = createLogger('test')

function spies() {
  return {
    debug: vi.spyOn(console, 'debug').mockImplementation(() => {}),
    info: vi.spyOn(console, 'info').mockImplementation(() => {}),
    warn: vi.spyOn(console, 'warn').mockImplementation(() => {}),
    error: vi.spyOn(console, 'error').mockImplementation(() => {}),
  }
}

describe('logging switches', () => {
  beforeEach(() => {
    setDebugMode(false)
    setConsoleLogging(false)
  })
  afterEach(() => {
    vi.restoreAllMocks()
    setDebugMode(false)
    setConsoleLogging(false)
  })

  it('is silent by default', () => {
    const s = spies()
    log.error('failure')
    log.info('hello')
    expect(s.error).not.toHaveBeenCalled()
    expect(s.info).not.toHaveBeenCalled()
  })

  it('console logging prints info and above, but not debug', () => {
    const s = spies()
    setConsoleLogging(true)
    log.info('hello')
    log.debug('details')
    expect(s.info).toHaveBeenCalledWith('[scope-connect:test] hello')
    expect(s.debug).not.toHaveBeenCalled()
  })

  it('debug mode turns console logging on and prints debug lines', () => {
    const s = spies()
    setDebugMode(true)
    log.debug('details')
    expect(s.debug).toHaveBeenCalledTimes(1)
  })

  it('turning debug mode off leaves console logging as it was', () => {
    const s = spies()
    setDebugMode(true)
    setDebugMode(false)
    log.info('still on')
    log.debug('now off')
    expect(s.info).toHaveBeenCalledTimes(1)
    expect(s.debug).not.toHaveBeenCalled()
  })

  it('never throws, whatever it is given', () => {
    expect(() => setDebugMode(undefined as unknown as boolean)).not.toThrow()
    expect(() => setConsoleLogging('yes' as unknown as boolean)).not.toThrow()
    setConsoleLogging(true)
    vi.spyOn(console, 'info').mockImplementation(() => {
      throw new Error('console broken')
    })
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(() => log.info('cyclic', cyclic)).not.toThrow()
  })

  it('redacts secrets before printing', () => {
    const s = spies()
    setConsoleLogging(true)
    log.warn('polling https://api.example/r?token=abc123 with Bearer s3cr3t-token', {
      sessionId: 'visible-id',
      sessionToken: 'tok_abcdef',
      nested: { signature: '0xdeadbeef', symKey: new Uint8Array(32) },
      uri: 'scope:aa@1?symKey=00ff',
    })
    const printed = JSON.stringify(s.warn.mock.calls)
    expect(printed).toContain('visible-id')
    for (const secret of ['abc123', 's3cr3t-token', 'tok_abcdef', '0xdeadbeef', '00ff']) {
      expect(printed).not.toContain(secret)
    }
  })
})

describe('redact', () => {
  it('masks secret keys at any depth and secret patterns in strings', () => {
    expect(redact({ a: { b: { privateKey: 'k' } } })).toEqual({
      a: { b: { privateKey: '[redacted]' } },
    })
    expect(redact('x?symKey=abcdef0123&y=1')).toBe('x?symKey=[redacted]&y=1')
    expect(redact(10n)).toBe('10')
    expect(redact([{ authorization: 'Bearer x' }])).toEqual([{ authorization: '[redacted]' }])
  })

  it('keeps an Error readable without its stack', () => {
    const out = redact(Object.assign(new Error('failed with token=zzz'), { code: 4001 })) as Record<
      string,
      unknown
    >
    expect(out).toEqual({ name: 'Error', message: 'failed with token=[redacted]', code: 4001 })
  })
})
