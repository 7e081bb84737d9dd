import { expect } from 'vitest'
import { type AppErrorCode, isAppError } from '../../src/errors'

/** Runs `fn`, expecting an AppError of `code` whose message contains every `fragment`. */
export function expectAppError(
  fn: () => unknown,
  code: AppErrorCode,
  ...fragments: string[]
): void {
  let thrown: unknown
  try {
    fn()
  } catch (error) {
    thrown = error
  }
  expect(isAppError(thrown, code), `expected AppError ${code}, got ${String(thrown)}`).toBe(true)
  for (const fragment of fragments) expect((thrown as Error).message).toContain(fragment)
}
