import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from './doc-blocks'

// docs/README.md is the index: it links every page of docs/ (and the changelog), so a new page
// cannot go unlisted.

const index = readFileSync(join(ROOT, 'docs/README.md'), 'utf8')
const linked = new Set([...index.matchAll(/\]\(([^)#\s]+)/g)].map((match) => match[1]))

describe('docs/README.md indexes every page', () => {
  it('links each docs/*.md and docs/*.json', () => {
    const pages = readdirSync(join(ROOT, 'docs')).filter(
      (name) => name !== 'README.md' && /\.(md|json)$/.test(name),
    )
    expect(pages).toContain('operations.md')
    expect(pages.filter((page) => !linked.has(page))).toEqual([])
  })

  it('links the changelog', () => {
    expect(linked).toContain('../CHANGELOG.md')
  })
})
