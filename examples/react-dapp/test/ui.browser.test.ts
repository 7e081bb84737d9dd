import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { extname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { getClientPaths, openClientPaths, type PagePathsHandle } from 'scope-connect/testing'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeContexts, sharedChromium } from '../../../test/browser/support/chromium'
import { buttonFor } from '../src/ui-checks'

// The same generated paths in real Chromium: the example built by Vite (its `paths.html` page),
// each user action a real click by Playwright, the panel checked in the page after every step.

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))
const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
}

let outDir: string
let server: Server
let browser: Browser
let page: Page
let paths: PagePathsHandle
// The desktop and pairing flows, as the page (src/paths-page.tsx): the panel is a desktop page.
const expected = getClientPaths({ flows: ['desktop', 'pairing'] }).map((path) => path.description)

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'react-dapp-'))
  await build({
    configFile: here('../vite.config.ts'),
    build: { outDir, emptyOutDir: true },
    logLevel: 'silent',
  })
  server = createServer(async (request, response) => {
    const path = normalize(new URL(request.url ?? '/', 'http://x').pathname).replace(/^\/+/, '')
    try {
      const body = await readFile(join(outDir, path || 'index.html'))
      response.writeHead(200, {
        'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
      })
      response.end(body)
    } catch {
      response.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  browser = await sharedChromium()
  page = await browser.newPage()
  paths = await openClientPaths(page, `${origin}/paths.html`, {
    // The page's clock is Playwright's: named timeouts pass when the path says, not in real time.
    clock: true,
    // A real click on the action's button; a disabled one times out and fails the path.
    act: (action) =>
      page.getByRole('button', { name: buttonFor(action), exact: true }).click({ timeout: 2_000 }),
  })
}, 120_000)

afterAll(async () => {
  if (paths) console.log(`Chromium: ${await paths.coverageLine()}`)
  await closeContexts(browser)
  await new Promise((resolve) => server?.close(resolve))
  if (outDir) await rm(outDir, { recursive: true, force: true })
})

describe('the connect panel in Chromium on every generated path', () => {
  it('the page generates the same paths as Node', () => {
    expect(paths.descriptions).toEqual(expected)
  })

  for (const [index, description] of expected.entries())
    it(description, async () => {
      await paths.run(index)
    })

  it('covers every status and status change the chart allows', async () => {
    // Every status and status change of the flows replayed here (not the universal-link flow's).
    expect(await paths.coverageLine()).toMatch(
      /statuses (\d+)\/\1, status changes (\d+)\/\2; not counted: stopped/,
    )
  })
})
