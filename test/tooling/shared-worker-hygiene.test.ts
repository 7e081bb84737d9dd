import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { createVitest } from 'vitest/node'
import { createFixtureProject } from './support/fixture-project'

// The guard of the files that share a worker (vitest.config.ts, `isolate: false`) bites: a file that
// leaves a global, removes one, or keeps fake timers on fails, and a tidy file passes.

const HYGIENE = fileURLToPath(new URL('../support/shared-worker-hygiene.ts', import.meta.url))

const project = createFixtureProject({
  'test/leaves-a-global.test.ts': `import { it } from 'vitest'
it('sets a global', () => { (globalThis as { leftover?: number }).leftover = 1 })
`,
  'test/removes-a-global.test.ts': `import { it } from 'vitest'
it('removes a global', () => { delete (globalThis as { structuredClone?: unknown }).structuredClone })
`,
  'test/keeps-fake-timers.test.ts': `import { it, vi } from 'vitest'
it('fakes the clock', () => { vi.useFakeTimers() })
`,
  'test/tidy.test.ts': `import { it, vi } from 'vitest'
it('stubs and restores', () => { vi.stubGlobal('leftover', 2); vi.unstubAllGlobals() })
`,
})
afterAll(() => project.remove())

/** Each fixture file in a worker of its own, so one file's leftovers cannot fail another. */
async function run(file: string): Promise<string[]> {
  const vitest = await createVitest('test', {
    root: project.root,
    config: false,
    watch: false,
    include: [file],
    isolate: false,
    setupFiles: [HYGIENE],
    reporters: [{}],
  })
  try {
    const { testModules } = await vitest.start()
    return testModules.flatMap((module) => module.errors().map((error) => error.message))
  } finally {
    await vitest.close()
  }
}

describe('shared-worker hygiene', () => {
  it('fails a file that leaves a global behind', async () => {
    expect(await run('test/leaves-a-global.test.ts')).toEqual([
      'this file shares its worker: it left globals behind: leftover',
    ])
  }, 60_000)

  it('fails a file that removes a global', async () => {
    expect(await run('test/removes-a-global.test.ts')).toEqual([
      'this file shares its worker: it removed globals: structuredClone',
    ])
  }, 60_000)

  it('fails a file that keeps fake timers on', async () => {
    expect(await run('test/keeps-fake-timers.test.ts')).toEqual([
      'this file shares its worker: it left fake timers on',
    ])
  }, 60_000)

  it('passes a file that restores what it stubbed', async () => {
    expect(await run('test/tidy.test.ts')).toEqual([])
  }, 60_000)
})
