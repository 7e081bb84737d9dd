import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type ApiExport, collectExports, renderApiReference } from '../../scripts/api-reference'
import { ROOT } from './doc-blocks'

// Every public export of every entry point is documented: it has a JSDoc comment (shown in
// docs/api.md) or a topic page names it. docs/api.md itself must be current.

/**
 * `scope-connect/machines` is being rewritten on the `actors` branch (machines/**, which also
 * documents its types); remove this exception once that branch has landed.
 */
const PENDING_ACTORS = new Set(['scope-connect/machines'])

const exports = collectExports()

function undocumented(items: ApiExport[]): string[] {
  return items
    .filter((item) => !PENDING_ACTORS.has(item.entry))
    .filter((item) => item.summary === '' && item.pages.length === 0)
    .map((item) => `${item.entry}: ${item.name}`)
}

describe('public exports are documented', () => {
  it('sees every entry point of package.json exports', () => {
    expect([...new Set(exports.map((item) => item.entry))]).toEqual(
      expect.arrayContaining(['scope-connect', 'scope-connect/wire', 'scope-connect/machines']),
    )
    expect(exports.length).toBeGreaterThan(250)
  })

  it('docs/api.md is up to date (npx tsx scripts/api-reference.ts)', () => {
    expect(readFileSync(join(ROOT, 'docs/api.md'), 'utf8')).toBe(renderApiReference(exports))
  })

  it('every export has a JSDoc summary or a topic page that names it', () => {
    expect(undocumented(exports)).toEqual([])
  })

  it('the check catches an export without JSDoc that no page names', () => {
    const bare = { entry: 'scope-connect', name: 'bare', kind: 'const', summary: '', pages: [] }
    expect(undocumented([bare, { ...bare, name: 'named', pages: ['docs/x.md'] }])).toEqual([
      'scope-connect: bare',
    ])
  })
})
