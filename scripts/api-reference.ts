/**
 * docs/api.md: every public export of every entry in `package.json` `exports`, with its kind,
 * the first sentence of its JSDoc and the topic page that explains it. Generated from the sources:
 *
 *   npx tsx scripts/api-reference.ts          # write docs/api.md
 *   npx tsx scripts/api-reference.ts --check  # exit 1 when docs/api.md is stale
 *
 * `test/docs/exports-documented.test.ts` runs the check and fails on an export that lacks a JSDoc
 * summary or that no topic page names.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { entryModules } from './build'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const OUT = join(ROOT, 'docs', 'api.md')

export interface ApiExport {
  entry: string
  name: string
  kind: string
  summary: string
  /** Topic pages (docs/*.md, README.md) that name it, besides this reference. */
  pages: string[]
}

function kindOf(symbol: ts.Symbol): string {
  const flags = symbol.flags
  if (flags & ts.SymbolFlags.Class) return 'class'
  if (flags & ts.SymbolFlags.Function) return 'function'
  if (flags & ts.SymbolFlags.Interface) return 'interface'
  if (flags & ts.SymbolFlags.TypeAlias) return 'type'
  if (flags & ts.SymbolFlags.Enum) return 'enum'
  if (flags & ts.SymbolFlags.Variable) return 'const'
  return 'export'
}

/** The first sentence of a JSDoc text, on one line, without markdown links. */
function firstSentence(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim()
  const end = oneLine.search(/(?<!\b(?:e\.g|i\.e|etc|vs))\.(\s|$)/)
  const sentence = end === -1 ? oneLine : oneLine.slice(0, end + 1)
  return sentence.replace(/\|/g, '\\|')
}

function topicPages(): Array<{ page: string; text: string }> {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md') && name !== 'api.md' && name !== 'bundle-size.md')
    .map((name) => `docs/${name}`)
  return ['README.md', ...docs].map((page) => ({
    page,
    text: readFileSync(join(ROOT, page), 'utf8'),
  }))
}

export function collectExports(): ApiExport[] {
  const entries = entryModules()
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile)
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT)
  const program = ts.createProgram({
    rootNames: entries.map((file) => join(ROOT, file)),
    options: { ...options, noEmit: true },
  })
  const checker = program.getTypeChecker()
  const pages = topicPages()
  const result: ApiExport[] = []
  for (const entry of entries) {
    const source = program.getSourceFile(join(ROOT, entry))
    const moduleSymbol = source && checker.getSymbolAtLocation(source)
    if (!moduleSymbol) throw new Error(`cannot read the exports of ${entry}`)
    const subpath = entryName(entry)
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol =
        exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
      const name = exported.getName()
      const summary = firstSentence(
        ts.displayPartsToString(symbol.getDocumentationComment(checker)),
      )
      const pattern = new RegExp(`\\b${name.replace(/\$/g, '\\$')}\\b`)
      result.push({
        entry: subpath,
        name,
        kind: kindOf(symbol),
        summary,
        pages: pages.filter(({ text }) => pattern.test(text)).map(({ page }) => page),
      })
    }
  }
  return result.sort((a, b) => (a.entry === b.entry ? a.name.localeCompare(b.name) : 0))
}

/** `src/index.ts` → `scope-connect`, `src/wire/index.ts` → `scope-connect/wire`. */
function entryName(entry: string): string {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    exports: Record<string, { import?: { default?: string } } | string>
  }
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target === 'string') continue
    const out = target.import?.default ?? ''
    const base = entry.replace(/^src\//, '').replace(/\.tsx?$/, '')
    if (out === `./dist/${base}.js`)
      return subpath === '.' ? 'scope-connect' : `scope-connect${subpath.slice(1)}`
  }
  return entry
}

function link(page: string): string {
  return page === 'README.md'
    ? '[README](../README.md)'
    : `[${page.slice(5, -3)}](${page.slice(5)})`
}

export function renderApiReference(exports: ApiExport[]): string {
  const entries = [...new Set(exports.map((item) => item.entry))]
  const sections = entries.map((entry) => {
    const rows = exports
      .filter((item) => item.entry === entry)
      .map(
        (item) =>
          `| \`${item.name}\` | ${item.kind} | ${item.summary || '—'} | ${item.pages.slice(0, 3).map(link).join(', ') || '—'} |`,
      )
    return `## \`${entry}\`\n\n| Export | Kind | What it is | Explained in |\n|---|---|---|---|\n${rows.join('\n')}\n`
  })
  return `# API reference

Every public export of the package, by entry point, generated from the sources by
\`npx tsx scripts/api-reference.ts\` (do not edit by hand; \`test/docs/exports-documented.test.ts\`
fails when this page is stale). "What it is" is the first sentence of the export's JSDoc;
"Explained in" lists the topic pages that name it. Types are exported with \`export type\`.

${sections.join('\n')}`
}

const isEntryPoint = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1])
if (isEntryPoint) {
  const text = renderApiReference(collectExports())
  if (process.argv.includes('--check')) {
    if (readFileSync(OUT, 'utf8') !== text) {
      console.error('docs/api.md is stale: run npx tsx scripts/api-reference.ts')
      process.exit(1)
    }
  } else {
    writeFileSync(OUT, text)
    console.log(`written ${OUT}`)
  }
}
