import { expect } from 'vitest'
import { type AppError, type AppErrorCode, isAppError } from '../../../src/errors'

/** Awaits a rejection and checks it is an `AppError` of `code`; returns it for more checks. */
export async function expectAppError(
  promise: Promise<unknown>,
  code: AppErrorCode,
): Promise<AppError> {
  let caught: unknown
  try {
    await promise
  } catch (error) {
    caught = error
  }
  expect(caught, 'expected a rejection').toBeInstanceOf(Error)
  expect((caught as AppError).code).toBe(code)
  expect(isAppError(caught, code)).toBe(true)
  return caught as AppError
}

/** Same for a synchronous throw. */
export function expectThrownAppError(run: () => unknown, code: AppErrorCode): AppError {
  let caught: unknown
  try {
    run()
  } catch (error) {
    caught = error
  }
  expect(isAppError(caught, code), `expected AppError ${code}, got ${String(caught)}`).toBe(true)
  return caught as AppError
}
