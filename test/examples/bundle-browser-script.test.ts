import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundleBrowserScript } from '../../examples/wallet-simulator/serve'

// The examples' page bundles are kept per process (the browser files of a worker serve the same
// pages one after another), and made again as soon as one of their input files changes.

let dir: string
let entry: string
let imported: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bundle-browser-script-'))
  entry = join(dir, 'entry.ts')
  imported = join(dir, 'greeting.ts')
  await writeFile(entry, "import { greeting } from './greeting'\nconsole.log(greeting)\n")
  await writeFile(imported, "export const greeting = 'first'\n")
})

afterAll(() => rm(dir, { recursive: true, force: true }))

/** Writes `text` to `path`, modified at `seconds` after 1970 (as the bundler's check reads it). */
async function change(path: string, text: string, seconds: number) {
  await writeFile(path, text)
  await utimes(path, seconds, seconds)
}

describe('bundleBrowserScript', () => {
  it('gives the bundle it made back while no input changed; an imported file changed: a new bundle', async () => {
    await change(imported, "export const greeting = 'first'\n", 1_000)
    const first = await bundleBrowserScript(entry)
    expect(first).toContain('"first"')
    expect(await bundleBrowserScript(entry)).toBe(first)
    // Kept, not made again: other text under the same modification time is not read.
    await change(imported, "export const greeting = 'unread'\n", 1_000)
    expect(await bundleBrowserScript(entry)).toBe(first)

    await change(imported, "export const greeting = 'second'\n", 1_001)
    const second = await bundleBrowserScript(entry)
    expect(second).toContain('"second"')
    expect(second).not.toContain('"first"')
  })

  it('behavior: the entry itself changed, or an input is gone: a new bundle (or its error)', async () => {
    await change(entry, "console.log('entry changed')\n", 2_000)
    expect(await bundleBrowserScript(entry)).toContain('"entry changed"')
    await change(entry, "import { greeting } from './greeting'\nconsole.log(greeting)\n", 2_001)
    await bundleBrowserScript(entry)
    await rm(imported)
    await expect(bundleBrowserScript(entry)).rejects.toThrow(/greeting/)
  })
})
