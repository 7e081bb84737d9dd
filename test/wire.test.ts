import { describe, expect, it } from 'vitest'
import {
  BACKEND_ERROR_STATUS,
  BalanceQuerySchema,
  Caip2Schema,
  ConnectCallbackSchema,
  CreateSessionRequestSchema,
  ErrorBodySchema,
  issuesToFieldIssues,
  ROUTES,
  SessionResultResponseSchema,
  SignCallbackSchema,
} from '../src/wire'

const sessionId = 'AAAAAAAAAAAAAAAAAAAAAA'

describe('wire schemas', () => {
  it('CAIP-2 ids follow the CAIP-2 grammar', () => {
    for (const ok of ['eip155:1', 'eip155:11155111', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp']) {
      expect(Caip2Schema.safeParse(ok).success, ok).toBe(true)
    }
    for (const bad of [
      '',
      'eip155',
      ':1',
      'EIP155:1',
      'ab:1',
      'eip155:',
      'toolongnamespace:1',
      'eip155:1:2',
    ]) {
      expect(Caip2Schema.safeParse(bad).success, bad).toBe(false)
    }
  })

  it('balance query accepts native and decimals 0..255 as strings', () => {
    const base = { chainId: 'eip155:1', tokenAddress: 'native', account: '0x' + 'a'.repeat(40) }
    expect(BalanceQuerySchema.safeParse(base).success).toBe(true)
    expect(BalanceQuerySchema.safeParse({ ...base, decimals: '255' }).success).toBe(true)
    expect(BalanceQuerySchema.safeParse({ ...base, decimals: '0' }).success).toBe(true)
    for (const decimals of ['256', '-1', '1.5', '007', '', 'abc']) {
      expect(BalanceQuerySchema.safeParse({ ...base, decimals }).success, decimals).toBe(false)
    }
  })

  it('request bodies are strict: unknown keys are refused', () => {
    expect(CreateSessionRequestSchema.safeParse({ caip2Chain: 'eip155:1' }).success).toBe(true)
    expect(
      CreateSessionRequestSchema.safeParse({ caip2Chain: 'eip155:1', admin: true }).success,
    ).toBe(false)
    expect(
      CreateSessionRequestSchema.safeParse({ caip2Chain: 'eip155:1', intent: 'steal' }).success,
    ).toBe(false)
  })

  it('callbacks require every documented field', () => {
    const connect = {
      sessionId,
      walletSlug: 'metamask',
      caip2Chain: 'eip155:1',
      walletAddress: '0x' + 'b'.repeat(40),
    }
    expect(ConnectCallbackSchema.safeParse(connect).success).toBe(true)
    expect(ConnectCallbackSchema.safeParse({ ...connect, walletSlug: undefined }).success).toBe(
      false,
    )
    expect(
      SignCallbackSchema.safeParse({ sessionId, signature: '0x' + 'c'.repeat(130), timestamp: 1 })
        .success,
    ).toBe(true)
    expect(
      SignCallbackSchema.safeParse({ sessionId, signature: '0x' + 'c'.repeat(130), timestamp: 1.5 })
        .success,
    ).toBe(false)
  })

  it('the session result carries every GenericSessionResult field', () => {
    const result = {
      sessionId,
      status: 'signed',
      connected: true,
      signed: true,
      walletAddress: '0xabc',
      signature: '0x1',
      txSignature: null,
      errorCode: null,
      expiresAt: 1,
    }
    expect(SessionResultResponseSchema.safeParse(result).success).toBe(true)
    expect(SessionResultResponseSchema.safeParse({ ...result, status: 'done' }).success).toBe(false)
    const { txSignature: _dropped, ...missing } = result
    expect(SessionResultResponseSchema.safeParse(missing).success).toBe(false)
  })

  it('error bodies: details only as a non-empty list', () => {
    expect(ErrorBodySchema.safeParse({ error: { code: 'NOT_FOUND', message: 'x' } }).success).toBe(
      true,
    )
    expect(
      ErrorBodySchema.safeParse({
        error: { code: 'VALIDATION_FAILED', message: 'x', details: [{ field: 'a', reason: 'b' }] },
      }).success,
    ).toBe(true)
    expect(
      ErrorBodySchema.safeParse({ error: { code: 'X', message: 'x', details: [] } }).success,
    ).toBe(false)
    expect(ErrorBodySchema.safeParse({ code: 'X', message: 'x' }).success).toBe(false)
  })

  it('every backend code maps to a 4xx/5xx status and the documented ones are present', () => {
    expect(BACKEND_ERROR_STATUS.VALIDATION_FAILED).toBe(422)
    expect(BACKEND_ERROR_STATUS.RATE_LIMITED).toBe(429)
    expect(BACKEND_ERROR_STATUS.SESSION_EXPIRED).toBe(410)
    expect(BACKEND_ERROR_STATUS.NONCE_USED).toBe(409)
    for (const status of Object.values(BACKEND_ERROR_STATUS)) {
      expect(status).toBeGreaterThanOrEqual(400)
      expect(status).toBeLessThan(600)
    }
  })

  it('routes encode session ids', () => {
    expect(ROUTES.sessionResult('a/b')).toBe('/sessions/a%2Fb/result')
  })
})

describe('issuesToFieldIssues', () => {
  it('names the field path and a readable reason for each issue', () => {
    const input = { sessionId: 'short', walletSlug: 'metamask', caip2Chain: 'eip155:1', extra: 1 }
    const parsed = ConnectCallbackSchema.safeParse(input)
    expect(parsed.success).toBe(false)
    const issues = issuesToFieldIssues(parsed.error?.issues ?? [], input)
    const byField = Object.fromEntries(issues.map((i) => [i.field, i.reason]))
    expect(byField.sessionId).toMatch(/invalid format/)
    expect(byField.walletAddress).toBe('is required')
    expect(byField['(root)']).toBe('has unknown keys: extra')
  })

  it('describes type, size and enum failures', () => {
    const input = { caip2Chain: 5, intent: 'x' }
    const parsed = CreateSessionRequestSchema.safeParse(input)
    const reasons = issuesToFieldIssues(parsed.error?.issues ?? [], input).map(
      (i) => `${i.field}: ${i.reason}`,
    )
    expect(reasons).toContain('caip2Chain: must be string')
    expect(reasons).toContain('intent: must be one of "connect", "sign", "transaction"')
  })
})
