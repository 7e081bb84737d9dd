import { afterAll, beforeAll, vi } from 'vitest'

/**
 * For the files that share a worker's modules (`isolate: false`, vitest.config.ts): a file must
 * leave the process as it found it, or the next file in the worker runs in its leftovers (the fault
 * harness once left a `window`, and the next file's universal-link paths timed out). Fails the file
 * that leaves a new global, removes one, or keeps fake timers on.
 */
let globalsBefore: Set<string>

beforeAll(() => {
  globalsBefore = new Set(Object.getOwnPropertyNames(globalThis))
})

afterAll(() => {
  const after = new Set(Object.getOwnPropertyNames(globalThis))
  const added = [...after].filter((name) => !globalsBefore.has(name))
  const removed = [...globalsBefore].filter((name) => !after.has(name))
  const problems = [
    ...(added.length > 0 ? [`left globals behind: ${added.join(', ')}`] : []),
    ...(removed.length > 0 ? [`removed globals: ${removed.join(', ')}`] : []),
    ...(vi.isFakeTimers() ? ['left fake timers on'] : []),
  ]
  if (problems.length > 0) throw new Error(`this file shares its worker: it ${problems.join('; ')}`)
})
