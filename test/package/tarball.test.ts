import { readFileSync } from 'node:fs'
import { join, posix } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Consumer, createConsumer, packTarball, tarballFiles } from '../support/packed'

// What `npm pack` ships: the build (prepack), the licence, the README and the docs it links to,
// every file `exports` names, and no tests.

let files: string[]
let consumer: Consumer

beforeAll(() => {
  const tarball = packTarball()
  files = tarballFiles(tarball)
  consumer = createConsumer(tarball)
}, 180_000)

afterAll(() => consumer?.remove())

function read(path: string): string {
  return readFileSync(join(consumer.packageDir, path), 'utf8')
}

/** Relative link targets of a markdown file (images included), without fragments. */
function relativeLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] ?? '')
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'))
    .map((target) => target.split('#')[0] ?? '')
}

describe('the packed tarball', () => {
  it('holds the licence (MIT, as package.json says), the README and the build', () => {
    const manifest = JSON.parse(read('package.json')) as { license: string; scripts: object }
    expect(manifest.license).toBe('MIT')
    expect(read('LICENSE')).toMatch(/^MIT License/)
    expect(files).toEqual(expect.arrayContaining(['README.md', 'LICENSE', 'dist/index.js']))
    expect(manifest.scripts).toHaveProperty('prepack')
    expect(files.some((file) => /(^|\/)test\//.test(file) || file.endsWith('.test.ts'))).toBe(false)
  })

  it('every file package.json exports names is in it', () => {
    const manifest = JSON.parse(read('package.json')) as { exports: Record<string, unknown> }
    // Values only (`"./wire"` is a key): `:"./dist/wire/index.js"`.
    const targets = [...JSON.stringify(manifest.exports).matchAll(/:"\.\/([^"]+)"/g)].map(
      (match) => match[1],
    )
    expect(targets.length).toBeGreaterThan(8)
    for (const target of targets) expect(files).toContain(target)
  })

  it('every relative link of the packed README, changelog and docs resolves inside the tarball', () => {
    const pages = files.filter(
      (file) => file === 'README.md' || file === 'CHANGELOG.md' || /^docs\/.*\.md$/.test(file),
    )
    expect(pages).toContain('CHANGELOG.md')
    expect(pages.length).toBeGreaterThan(10)
    const broken: string[] = []
    for (const page of pages) {
      for (const link of relativeLinks(read(page))) {
        const target = posix.normalize(posix.join(posix.dirname(page), link))
        if (!files.includes(target)) broken.push(`${page} → ${link}`)
      }
    }
    expect(broken).toEqual([])
  })

  it('the link check sees links (it is not vacuous)', () => {
    expect(relativeLinks(read('README.md'))).toEqual(
      expect.arrayContaining(['docs/README.md', 'visualizations/connect.svg']),
    )
  })

  it('the React and UI entries open with "use client" (ESM and CJS); the others do not', () => {
    // The directive prologue: the string-literal statements a module opens with.
    const prologue = (path: string) => {
      const directives: string[] = []
      const statement = /\s*(?:"([^"]*)"|'([^']*)');?/y
      const text = read(path)
      for (let match = statement.exec(text); match !== null; match = statement.exec(text)) {
        directives.push(match[1] ?? match[2] ?? '')
      }
      return directives
    }
    for (const entry of ['dist/react/index', 'dist/ui/index']) {
      expect(prologue(`${entry}.js`)).toContain('use client')
      expect(prologue(`${entry}.cjs`)).toContain('use client')
    }
    for (const entry of ['dist/index', 'dist/client/index', 'dist/wire/index']) {
      expect(prologue(`${entry}.js`)).not.toContain('use client')
    }
  })
})
