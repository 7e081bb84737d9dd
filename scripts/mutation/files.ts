/**
 * Files the mutation run works on: the machine sources (`machines/**\/*.machine.ts`) and, for each
 * machine, the test files that can kill its mutants.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, dirname, join, relative, sep } from 'node:path'

const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', 'coverage', 'reports'])

/** Every file under `dir` (relative to `root`, `/`-separated), skipping build and vendor folders. */
export function walk(root: string, dir = ''): string[] {
  const files: string[] = []
  let entries: string[]
  try {
    entries = readdirSync(join(root, dir)).sort()
  } catch {
    return files
  }
  for (const entry of entries) {
    const path = dir ? `${dir}/${entry}` : entry
    const stats = statSync(join(root, path), { throwIfNoEntry: false })
    if (!stats) continue
    if (stats.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry) && !entry.startsWith('.')) files.push(...walk(root, path))
    } else files.push(path)
  }
  return files
}

/** A glob (`**`, `*`, `?`) as a regular expression over `/`-separated relative paths. */
export function globToRegExp(glob: string): RegExp {
  let source = ''
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/'
      source += slash ? '(?:.*/)?' : '.*'
      i += slash ? 2 : 1
    } else if (c === '*') source += '[^/]*'
    else if (c === '?') source += '[^/]'
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&')
  }
  return new RegExp(`^${source}$`)
}

/** Files matching a glob, or every file under a folder given without glob characters. */
export function matchFiles(files: string[], pattern: string): string[] {
  const clean = pattern.replace(/^\.\//, '').replace(/\/$/, '')
  if (/[*?]/.test(clean)) {
    const re = globToRegExp(clean)
    return files.filter((f) => re.test(f))
  }
  return files.filter((f) => f === clean || f.startsWith(`${clean}/`))
}

/** The machine source files of a project, relative to its root. */
export function machineFiles(root: string): string[] {
  return walk(root, 'machines').filter((f) => f.endsWith('.machine.ts'))
}

/** `machines/session-polling/session-polling.machine.ts` → `session-polling`. */
export const machineName = (file: string) => basename(file).replace(/\.machine\.ts$/, '')

const isTestFile = (file: string) => /\.(test|spec)\.[cm]?[jt]sx?$/.test(file)

export const DEFAULT_TEST_PATTERNS = ['test/model', 'test/machines']

/**
 * The test files for the machine in `machineFile`, in the order they should run: the given
 * patterns; by default `test/model`, `test/machines`, then every other test file that mentions
 * the machine (its folder, its file or its exported binding).
 */
export function selectTests(
  root: string,
  machineFile: string,
  exportNames: string[],
  patterns?: string[],
): string[] {
  const all = walk(root).filter(isTestFile)
  const chosen = new Set<string>()
  for (const pattern of patterns ?? DEFAULT_TEST_PATTERNS)
    for (const file of matchFiles(all, pattern)) chosen.add(file)
  const mentioning: string[] = []
  if (!patterns) {
    const folder = `${dirname(machineFile).split(sep).join('/')}/`
    const module = basename(machineFile).replace(/\.ts$/, '')
    const mentions = [folder, module, ...exportNames].filter((m) => m.length > 0)
    for (const file of all) {
      if (chosen.has(file)) continue
      const text = readFileSync(join(root, file), 'utf8')
      if (mentions.some((m) => text.includes(m))) mentioning.push(file)
    }
  }
  return [...chosen, ...mentioning]
}

export const toPosix = (root: string, file: string) => relative(root, file).split(sep).join('/')

/** `import … from './x'` / `export … from '../y'` / `import('./z')`: the relative specifiers. */
const RELATIVE_IMPORT = /(?:from\s*|import\s*\(\s*|^\s*import\s*)['"](\.{1,2}\/[^'"]+)['"]/gm
/** `import { inject } from 'vitest'`: the module reads what a `globalSetup` provides. */
const READS_PROVIDED = /import\s*\{[^}]*\binject\b[^}]*\}\s*from\s*['"]vitest['"]/
const SOURCE_EXTENSIONS = ['', '.ts', '.tsx', '.js', '/index.ts', '/index.js']

/**
 * Whether any of the test files (relative to `root`), or a module they import by a relative path,
 * reads what Vitest's `globalSetup` provides (`inject`). A mutant run of files that do not skips
 * the globalSetup (test/support/global-setup.ts boots a redis-server, a cluster and anvil); a
 * file that reaches it another way fails the baseline run, so nothing is lost silently.
 */
export function readsGlobalSetup(root: string, tests: string[]): boolean {
  const seen = new Set<string>()
  const pending = [...tests]
  while (pending.length > 0) {
    const file = pending.pop()!
    if (seen.has(file)) continue
    seen.add(file)
    let text: string
    try {
      text = readFileSync(join(root, file), 'utf8')
    } catch {
      continue
    }
    if (READS_PROVIDED.test(text)) return true
    for (const [, specifier] of text.matchAll(RELATIVE_IMPORT)) {
      const base = join(dirname(file), specifier!.replace(/\.js$/, ''))
      const found = SOURCE_EXTENSIONS.map((ext) => base + ext).find((candidate) =>
        statSync(join(root, candidate), { throwIfNoEntry: false })?.isFile(),
      )
      if (found) pending.push(found)
    }
  }
  return false
}
