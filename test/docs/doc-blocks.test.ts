import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { format } from 'node:util'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { SAMPLE_PROJECTS_FILE } from '../../server/src/cli-args'
import { loadProjectsFile } from '../../server/src/config/projects'
import { startTestServer, type TestServer } from '../../server/test/support/server'
import { sharedAnvil } from '../support/shared-services'
import { allBlocks, blockSource, type DocBlock, extractBlocks, ROOT } from './doc-blocks'
import { typeCheckBlocks } from './type-check'

// Docs that run: every ```ts / ```tsx block of README.md and docs/*.md is type-checked against the
// library; ```ts run blocks also run, against a real server serving the sample project with a
// real local chain (anvil), as after `npm start`, and each `console.log(…) // output` line must
// print what its comment says. Conventions: test/docs/doc-blocks.ts and CONTRIBUTING.md.

const NPM_START_URL = 'http://127.0.0.1:8787'
const RUN_DIR = join(ROOT, 'test/docs/.run')
const blocks = allBlocks()
const runnable = blocks.filter((block) => block.run)

describe('doc blocks are type-checked', () => {
  it('finds the blocks of every page, runnable ones included', () => {
    expect(blocks.length).toBeGreaterThan(20)
    expect(new Set(blocks.map((block) => block.page)).size).toBeGreaterThan(8)
    expect(runnable.map((block) => block.page)).toEqual(
      expect.arrayContaining(['README.md', 'docs/pairing.md']),
    )
  })

  it('every block compiles (strict) against the library', () => {
    expect(typeCheckBlocks(blocks).map((error) => error.message)).toEqual([])
  }, 120_000)

  it('a block with a mistake is reported at its page line (the check is live)', () => {
    const [block] = extractBlocks(
      'docs/example.md',
      "# Example\n\n<!-- prelude\ndeclare const n: number\n-->\n```ts\nimport { isAppError } from 'scope-connect'\n\nisAppError(n, 'NO_SUCH_CODE')\n```\n",
    )
    expect(block?.prelude).toContain('declare const n: number')
    const errors = typeCheckBlocks(block ? [block] : []).map((error) => error.message)
    expect(errors).toEqual([expect.stringMatching(/^docs\/example\.md:9: .*NO_SUCH_CODE/)])
  }, 120_000)
})

/** `console.log(…) // expected` lines of a block, in order (undefined: any output). */
function expectedOutputs(block: DocBlock): Array<string | undefined> {
  return block.code
    .split('\n')
    .filter((line) => line.includes('console.log('))
    .map((line) => /\)\s*\/\/\s*(.*)$/.exec(line)?.[1]?.trim())
}

describe('runnable doc blocks run against the real server and a local chain', () => {
  const anvil = sharedAnvil()
  let server: TestServer

  beforeAll(async () => {
    const projects = await loadProjectsFile(SAMPLE_PROJECTS_FILE)
    for (const project of projects.projects) {
      for (const network of project.networks) {
        if (network.chainId === 'eip155:31337') network.rpcUrl = anvil.rpcUrl
      }
    }
    server = await startTestServer({ projects })
    mkdirSync(RUN_DIR, { recursive: true })
  }, 60_000)

  afterAll(async () => {
    await server?.close()
    rmSync(RUN_DIR, { recursive: true, force: true })
  })

  for (const block of runnable) {
    it(`${block.page}:${block.line}`, async () => {
      const file = join(RUN_DIR, `${block.page.replace(/[/.]/g, '-')}-${block.line}.ts`)
      writeFileSync(file, blockSource(block).replaceAll(NPM_START_URL, server.baseUrl))
      const printed: string[] = []
      const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
        printed.push(format(...args))
      })
      try {
        await import(/* @vite-ignore */ file)
      } finally {
        log.mockRestore()
      }
      const expected = expectedOutputs(block)
      expect(printed).toHaveLength(expected.length)
      expected.forEach((text, index) => {
        if (text !== undefined) expect(printed[index]).toBe(text)
      })
    }, 60_000)
  }
})
