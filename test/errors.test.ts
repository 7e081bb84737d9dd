import { describe, expect, it } from 'vitest'
import {
  AppError,
  isAppError,
  isProviderRpcError,
  normalizeWalletError,
  ProviderRpcError,
  USER_REJECTED_CODE,
} from '../src/errors'

describe('AppError', () => {
  it('carries code, shortMessage, literal name and the HTTP extras', () => {
    const cause = new Error('socket hang up')
    const error = new AppError('BACKEND_ERROR', 'The backend refused the request.', {
      cause,
      status: 429,
      backendCode: 'RATE_LIMITED',
      retryAfterMs: 12_000,
    })
    expect(error).toBeInstanceOf(Error)
    expect(error.name).toBe('AppError')
    expect(error.code).toBe('BACKEND_ERROR')
    expect(error.shortMessage).toBe('The backend refused the request.')
    expect(error.message).toBe('The backend refused the request.')
    expect(error.cause).toBe(cause)
    expect(error.status).toBe(429)
    expect(error.backendCode).toBe('RATE_LIMITED')
    expect(error.retryAfterMs).toBe(12_000)
    expect(error.details).toBeUndefined()
  })

  it('lists field details in the message and keeps them structured', () => {
    const details = [{ field: 'chainId', reason: 'has an invalid format' }]
    const error = new AppError('RPC_ERROR', 'Validation failed.', { status: 422, details })
    expect(error.details).toEqual(details)
    expect(error.message).toBe('Validation failed.\n- chainId: has an invalid format')
  })

  it('omits unset options rather than storing undefined', () => {
    const error = new AppError('INVALID_CONFIG', 'baseUrl is required.')
    expect(Object.keys(error)).not.toContain('status')
    expect('cause' in error).toBe(false)
  })

  it('isAppError checks the name and optionally the code', () => {
    const error = new AppError('WALLET_NOT_FOUND', 'nope')
    expect(isAppError(error)).toBe(true)
    expect(isAppError(error, 'WALLET_NOT_FOUND')).toBe(true)
    expect(isAppError(error, 'RPC_ERROR')).toBe(false)
    expect(isAppError(new Error('x'))).toBe(false)
    expect(isAppError({ name: 'AppError', code: 'RPC_ERROR' } as unknown)).toBe(false)
    expect(isAppError(null as unknown)).toBe(false)
  })
})

describe('provider errors', () => {
  it('USER_REJECTED_CODE is the EIP-1193 user rejection code', () => {
    expect(USER_REJECTED_CODE).toBe(4001)
  })

  it('isProviderRpcError accepts errors and plain objects with an integer code and a message', () => {
    expect(isProviderRpcError(new ProviderRpcError(4001, 'User rejected'))).toBe(true)
    expect(isProviderRpcError({ code: -32603, message: 'Internal error' })).toBe(true)
    expect(isProviderRpcError({ code: '4001', message: 'x' })).toBe(false)
    expect(isProviderRpcError({ code: 4001.5, message: 'x' })).toBe(false)
    expect(isProviderRpcError({ code: 4001 })).toBe(false)
    expect(isProviderRpcError(new Error('no code'))).toBe(false)
    expect(isProviderRpcError(undefined)).toBe(false)
    expect(isProviderRpcError('4001')).toBe(false)
  })

  it('normalizeWalletError turns a user rejection into USER_REJECTED and keeps the cause', () => {
    const raw = { code: 4001, message: 'MetaMask Tx Signature: User denied transaction signature.' }
    const error = normalizeWalletError(raw)
    expect(error.code).toBe('USER_REJECTED')
    expect(error.cause).toBe(raw)
    expect(isProviderRpcError(error.cause)).toBe(true)
  })

  it('normalizeWalletError maps other provider errors to the fallback code with their message', () => {
    const error = normalizeWalletError(
      new ProviderRpcError(4902, 'Unrecognized chain'),
      'UNSUPPORTED_CHAIN',
    )
    expect(error.code).toBe('UNSUPPORTED_CHAIN')
    expect(error.message).toContain('4902')
    expect(normalizeWalletError(new Error('boom')).code).toBe('WALLET_ERROR')
    expect(normalizeWalletError('string thrown').message).toContain('string thrown')
  })

  it('normalizeWalletError passes an AppError through untouched', () => {
    const original = new AppError('NOT_CONNECTED', 'connect first')
    expect(normalizeWalletError(original)).toBe(original)
  })
})
