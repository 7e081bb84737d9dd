import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type ApiExport, collectExports, renderApiReference } from '../../scripts/api-reference'
import { ROOT } from './doc-blocks'

// Every public export of every entry point is documented twice: a JSDoc summary (shown in
// docs/api.md and in editors) and a topic page that names it (where a reader finds it in context).
// docs/api.md itself must be current.

const exports = collectExports()

/** The exports that lack a JSDoc summary, or that no topic page names, as `entry: name — what`. */
function undocumented(items: ApiExport[]): string[] {
  return items.flatMap((item) => [
    ...(item.summary === '' ? [`${item.entry}: ${item.name} — no JSDoc summary`] : []),
    ...(item.pages.length === 0 ? [`${item.entry}: ${item.name} — on no topic page`] : []),
  ])
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

  it('every export has a JSDoc summary and a topic page that names it', () => {
    expect(undocumented(exports)).toEqual([])
  })

  it('the check catches an export without JSDoc, and one that no page names', () => {
    const named = {
      entry: 'scope-connect',
      name: 'named',
      kind: 'const',
      summary: 'Named.',
      pages: ['docs/x.md'],
    }
    expect(
      undocumented([
        named,
        { ...named, name: 'bare', summary: '' },
        { ...named, name: 'unlisted', pages: [] },
      ]),
    ).toEqual([
      'scope-connect: bare — no JSDoc summary',
      'scope-connect: unlisted — on no topic page',
    ])
  })
})
