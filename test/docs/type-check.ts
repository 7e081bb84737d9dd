import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { blockSource, type DocBlock, ROOT } from './doc-blocks'

export interface BlockError {
  block: DocBlock
  /** `docs/page.md:LINE: message`, LINE being the page's own line. */
  message: string
}

/** TypeScript 7's compiler (`@typescript/native-preview`), as `npm test`'s type check runs it. */
const TSGO = join(ROOT, 'node_modules', '.bin', 'tsgo')

/** `tsgo --pretty false`: `file(line,col): error TSnnnn: message`, a chain's lines indented. */
const DIAGNOSTIC = /^(.+?)\((\d+),\d+\): error TS\d+: (.*)$/

/**
 * A block's source with its relative imports made absolute from its page's folder (`../server/src`
 * in docs/), so it type-checks from anywhere.
 */
function anchored(block: DocBlock): string {
  const pageDir = dirname(join(ROOT, block.page))
  return blockSource(block).replace(
    /(\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]*)\2/g,
    (_, keyword: string, quote: string, path: string) =>
      `${keyword}${quote}${resolve(pageDir, path)}${quote}`,
  )
}

/**
 * Type-checks doc blocks with tsgo and the repository's compiler options (strict; `scope-connect`
 * → `src/` through `paths`; JSX for `tsx` blocks): each block a module in a folder under test/docs/
 * (so packages resolve from the repository's node_modules), checked in one run. tsgo took the
 * check of every block from about 21 s (tsc 5.9 in process) to a few.
 */
export function typeCheckBlocks(blocks: DocBlock[]): BlockError[] {
  const dir = mkdtempSync(join(ROOT, 'test', 'docs', '.check-'))
  try {
    const files = new Map<string, DocBlock>()
    blocks.forEach((block, index) => {
      const file = join(dir, `block${index}.${block.language}`)
      writeFileSync(file, anchored(block))
      files.set(file, block)
    })
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: join(ROOT, 'tsconfig.json'),
        compilerOptions: { noEmit: true, jsx: 'react-jsx', noUnusedLocals: false },
        files: [...files.keys()],
        include: [],
      }),
    )
    const result = spawnSync(TSGO, ['-p', dir, '--pretty', 'false'], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    })
    if (result.error) throw result.error
    const errors: BlockError[] = []
    for (const line of result.stdout.split('\n')) {
      const match = DIAGNOSTIC.exec(line)
      if (!match) {
        // A message chain's further lines, indented under its first.
        const last = errors.at(-1)
        if (last && /^\s+\S/.test(line)) last.message += `\n${line.trim()}`
        continue
      }
      const [, file = '', line0 = '0', text = ''] = match
      const block = files.get(resolve(ROOT, file))
      if (!block) throw new Error(`tsgo reported outside the doc blocks: ${line}`)
      const preludeLines = block.prelude.split('\n').length
      const pageLine = block.line + (Number(line0) - preludeLines)
      errors.push({ block, message: `${block.page}:${pageLine}: ${text}` })
    }
    if (result.status !== 0 && errors.length === 0) {
      throw new Error(`tsgo failed without a diagnostic:\n${result.stdout}${result.stderr}`)
    }
    return errors
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
