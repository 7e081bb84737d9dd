/**
 * The backend's package build (`@scope-connect/server`): unbundled ESM, one `.js` per source
 * module of `server/src/`, with `.d.ts` from `tsgo` (TypeScript 7, native), into `server/dist/`. Run:
 * `npm run build` at the root (library, then server), or `npm run build -w @scope-connect/server`
 * (its `prepack`) once the library is built.
 *
 * - Entries: `src/index.ts` (`createServer`), `src/testing.ts` (`startTestBackend`) and
 *   `src/cli.ts` (the bin); every module reachable from them is compiled on its own, so file paths
 *   (`new URL('../projects.sample.json', import.meta.url)`) mean the same in `dist/` as in `src/`.
 * - Relative imports are rewritten to their output file (`./config` → `./config/index.js`) in
 *   JavaScript and declarations alike, so Node and `node16` type resolution find them; packages stay
 *   external (`scope-connect` is a dependency, resolved to its built `dist/`).
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, posix, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, type Plugin } from 'esbuild'
import { filesUnder } from './build'

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..')
export const SERVER = join(REPO, 'server')
/** The modules a user of the package starts from: what `exports` and `bin` reach. */
export const SERVER_ENTRIES = ['src/index.ts', 'src/testing.ts', 'src/cli.ts']
const OUT = 'dist'
/** Not the repository's tsconfig: its `paths` map `scope-connect` to the library's sources. */
const STANDALONE = { compilerOptions: { verbatimModuleSyntax: true } }
const TYPES_TMP = join(REPO, 'node_modules/.cache/scope-connect-server-build')

/** `src/config/projects.ts` → `dist/config/projects` (server-relative, posix). */
function outputBase(sourceFile: string): string {
  if (!sourceFile.startsWith('src/')) throw new Error(`${sourceFile} is outside server/src`)
  return `${OUT}/${sourceFile.slice('src/'.length).replace(/\.ts$/, '')}`
}

/** A relative import of `importer` (server-relative) → its source module (server-relative). */
function resolveSource(importer: string, specifier: string): string {
  const base = posix.join(posix.dirname(importer), specifier)
  const candidates = [`${base}.ts`, `${base}/index.ts`]
  if (base.endsWith('.js')) candidates.unshift(base.replace(/\.js$/, '.ts'))
  const found = candidates.find((file) => existsSync(join(SERVER, file)))
  if (found === undefined) throw new Error(`${importer}: cannot resolve ${specifier}`)
  return found
}

function outputSpecifier(importer: string, specifier: string): string {
  const from = posix.dirname(outputBase(importer))
  const path = `${posix.relative(from, outputBase(resolveSource(importer, specifier)))}.js`
  return path.startsWith('.') ? path : `./${path}`
}

async function reachableModules(): Promise<string[]> {
  const result = await build({
    absWorkingDir: SERVER,
    entryPoints: SERVER_ENTRIES,
    tsconfigRaw: STANDALONE,
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    outdir: 'reachable', // not written
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  return Object.keys(result.metafile.inputs)
    .filter((file) => file.endsWith('.ts'))
    .sort()
}

const unbundled: Plugin = {
  name: 'scope-connect-server-unbundled',
  setup(plugin) {
    plugin.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined
      if (!args.path.startsWith('.')) return { path: args.path, external: true }
      const importer = relative(SERVER, args.importer).split('\\').join('/')
      return { path: outputSpecifier(importer, args.path), external: true }
    })
  },
}

async function emitJavaScript(modules: string[]): Promise<void> {
  await build({
    absWorkingDir: SERVER,
    entryPoints: modules,
    tsconfigRaw: STANDALONE,
    outbase: 'src',
    outdir: OUT,
    bundle: true, // every import is external (plugin): one output per module, paths rewritten
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    sourcesContent: true, // the sources do not ship
    plugins: [unbundled],
    logLevel: 'warning',
  })
}

function rewriteDeclaration(text: string, sourceFile: string): string {
  return text
    .replace(/(\bfrom\s+)(['"])(\.[^'"]*)\2/g, (_, from: string, quote: string, spec: string) => {
      return `${from}${quote}${outputSpecifier(sourceFile, spec)}${quote}`
    })
    .replace(/(\bimport\(\s*)(['"])(\.[^'"]*)\2/g, (_, call: string, q: string, spec: string) => {
      return `${call}${q}${outputSpecifier(sourceFile, spec)}${q}`
    })
}

/**
 * Declarations of the public entries (and what they name). `scope-connect` resolves to the built
 * library (`node_modules/scope-connect` → its `dist/*.d.ts`), as it will for a user.
 */
function emitDeclarations(): void {
  if (!existsSync(join(REPO, 'dist/wire/index.d.ts'))) {
    throw new Error('build the library first (npm run build at the repository root)')
  }
  rmSync(TYPES_TMP, { recursive: true, force: true })
  mkdirSync(TYPES_TMP, { recursive: true })
  const tsconfig = join(TYPES_TMP, 'tsconfig.json')
  writeFileSync(
    tsconfig,
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2023'],
        module: 'ESNext',
        moduleResolution: 'Bundler',
        types: ['node'],
        typeRoots: [join(REPO, 'node_modules/@types')],
        strict: true,
        isolatedModules: true,
        verbatimModuleSyntax: true,
        skipLibCheck: true,
        declaration: true,
        emitDeclarationOnly: true,
        rootDir: join(SERVER, 'src'),
        outDir: join(TYPES_TMP, 'out'),
      },
      files: SERVER_ENTRIES.filter((file) => file !== 'src/cli.ts').map((file) =>
        join(SERVER, file),
      ),
    }),
  )
  execFileSync(join(REPO, 'node_modules/.bin/tsgo'), ['-p', tsconfig], { stdio: 'inherit' })
  const out = join(TYPES_TMP, 'out')
  for (const emitted of filesUnder(out, out).filter((file) => file.endsWith('.d.ts'))) {
    const source = `src/${emitted.replace(/\.d\.ts$/, '.ts')}`
    const target = join(SERVER, `${outputBase(source)}.d.ts`)
    mkdirSync(dirname(target), { recursive: true })
    writeFileSync(target, rewriteDeclaration(readFileSync(join(out, emitted), 'utf8'), source))
  }
  rmSync(TYPES_TMP, { recursive: true, force: true })
}

/** Builds `server/dist/`; returns the source modules compiled (server-relative). */
export async function buildServer(): Promise<string[]> {
  const modules = await reachableModules()
  rmSync(join(SERVER, OUT), { recursive: true, force: true })
  await emitJavaScript(modules)
  emitDeclarations()
  return modules
}

const isEntryPoint = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1])
if (isEntryPoint) {
  const started = Date.now()
  const modules = await buildServer()
  console.log(
    `built ${modules.length} server modules into server/${OUT}/ (ESM, d.ts) in ${Date.now() - started} ms`,
  )
}
