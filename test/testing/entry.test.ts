import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { entryModules } from '../../scripts/build'

// scope-connect/testing is for tests: no other entry reaches it, so the Client entry (and its
// size budget, test/package/budgets.test.ts) is what it was without the kit.

async function modulesOf(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'neutral',
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  return Object.keys(result.metafile.inputs)
}

describe('scope-connect/testing stays out of the other entries', () => {
  it('is an entry of package.json exports', () => {
    expect(entryModules()).toContain('src/testing/index.ts')
  })

  it('no other entry, the Client entry first, reaches a module of src/testing', async () => {
    const others = entryModules().filter((entry) => entry !== 'src/testing/index.ts')
    expect(others).toContain('src/client/index.ts')
    for (const entry of others) {
      const modules = await modulesOf(entry)
      expect(modules.length, entry).toBeGreaterThan(0)
      expect(
        modules.filter((file) => file.startsWith('src/testing/')),
        entry,
      ).toEqual([])
    }
  })

  it('the testing entry is built on the real root machine and the Client', async () => {
    const modules = await modulesOf('src/testing/index.ts')
    expect(modules).toContain('machines/client/client.machine.ts')
    expect(modules).toContain('src/client/client.ts')
  })
})
