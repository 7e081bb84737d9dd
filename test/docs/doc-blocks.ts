import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The TypeScript blocks of README.md and docs/*.md. Conventions (CONTRIBUTING.md, "Docs that run"):
 *
 * - ```` ```ts ```` / ```` ```tsx ````: type-checked as a module against the library (`scope-connect`
 *   resolves to `src/`), from the page's own folder (so `../server/src/…` works in docs/).
 * - ```` ```ts run ````: also run, against a real server serving the sample project with a local
 *   chain, as after `npm start` (`http://127.0.0.1:8787`, app key `sample-app-key`).
 * - `<!-- prelude … -->` right before a block: hidden code put in front of it, for the names a
 *   reader has from the surrounding text (`declare const client: Client`).
 */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

export interface DocBlock {
  /** Repository-relative page, e.g. `docs/pairing.md`. */
  page: string
  /** 1-based line of the opening fence. */
  line: number
  language: 'ts' | 'tsx'
  run: boolean
  prelude: string
  code: string
}

export function docPages(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`)
  return ['README.md', ...docs]
}

export function extractBlocks(page: string, markdown = readFileSync(join(ROOT, page), 'utf8')) {
  const blocks: DocBlock[] = []
  const lines = markdown.split('\n')
  let pendingPrelude = ''
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? ''
    if (line.trim().startsWith('<!-- prelude')) {
      const body: string[] = [line.trim().replace(/^<!-- prelude/, '')]
      while (!body.at(-1)?.includes('-->') && i + 1 < lines.length) body.push(lines[++i] ?? '')
      pendingPrelude = body.join('\n').replace(/-->\s*$/, '')
      continue
    }
    const fence = /^```(\S*)(.*)$/.exec(line)
    if (!fence) {
      if (line.trim() !== '') pendingPrelude = ''
      continue
    }
    const start = i
    const body: string[] = []
    while (i + 1 < lines.length && !/^```\s*$/.test(lines[i + 1] ?? '')) body.push(lines[++i] ?? '')
    i++ // the closing fence
    const language = fence[1]
    if (language === 'ts' || language === 'tsx') {
      blocks.push({
        page,
        line: start + 1,
        language,
        run: /\brun\b/.test(fence[2] ?? ''),
        prelude: pendingPrelude,
        code: body.join('\n'),
      })
    }
    pendingPrelude = ''
  }
  return blocks
}

export function allBlocks(): DocBlock[] {
  return docPages().flatMap((page) => extractBlocks(page))
}

/** A file name for the block beside its page (virtual: it is never written there). */
export function blockFile(block: DocBlock): string {
  const page = block.page.replace(/\.md$/, '')
  return join(ROOT, `${page}.line${block.line}.${block.language}`)
}

/** The module the type checker sees: prelude, block, and `export {}` so it is a module. */
export function blockSource(block: DocBlock): string {
  return `${block.prelude}\n${block.code}\nexport {}\n`
}
