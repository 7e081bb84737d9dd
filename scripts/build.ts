/**
 * The package build: unbundled ESM and CJS, one output file per source module, with declarations
 * for both (`.d.ts` beside `.js`, `.d.cts` beside `.cjs`). Run: `npm run build` (also `prepack`).
 *
 * - Entries come from `package.json` `exports`: every `import.default` target names a module
 *   (`./dist/wire/index.js` ← `src/wire/index.ts`, `./dist/machines/index.js` ←
 *   `machines/index.ts`). Add a subpath there and the build picks it up.
 * - Every module reachable from an entry (static and dynamic imports) is compiled on its own, so a
 *   bundler sees the real module graph and drops what an app does not import.
 * - Relative imports are rewritten to the output file (`./registry` → `./registry/index.js`, or
 *   `.cjs` in the CommonJS tree); packages stay external.
 * - Declarations come from `tsgo` (TypeScript 7, native: half the CPU of `tsc` 5.9's emit; what a
 *   consumer's `tsc` 5.9 makes of them is test/package/consumer-types.test.ts) and get the same
 *   rewriting. In `.d.cts` files a type import of an ESM-only package (ky, the Wallet Standard,
 *   @noble) carries `with { 'resolution-mode': 'import' }`, so a CommonJS consumer type-checks
 *   with `skipLibCheck: false` (without it TypeScript reports TS1479).
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, posix, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, type Plugin } from 'esbuild'
import ts from 'typescript'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const OUT = 'dist'
/** Source folders and where their modules land in `dist/`. */
const SOURCE_ROOTS: ReadonlyArray<{ source: string; output: string }> = [
  { source: 'src', output: OUT },
  { source: 'machines', output: `${OUT}/machines` },
]
const TYPES_TMP = 'node_modules/.cache/scope-connect-build/types'

type Format = 'esm' | 'cjs'
const JS_EXTENSION: Record<Format, string> = { esm: '.js', cjs: '.cjs' }
const DTS_EXTENSION: Record<Format, string> = { esm: '.d.ts', cjs: '.d.cts' }

interface PackageJson {
  exports: Record<string, string | { import?: { default?: string } }>
}

/** Repository-relative source module (`src/wire/index.ts`) → output path without extension. */
export function outputBase(sourceFile: string): string {
  const posixPath = sourceFile.split('\\').join('/')
  for (const { source, output } of SOURCE_ROOTS) {
    if (posixPath.startsWith(`${source}/`)) {
      return `${output}/${posixPath.slice(source.length + 1).replace(/\.tsx?$/, '')}`
    }
  }
  throw new Error(`${sourceFile} is outside the library's source folders`)
}

/** The source modules named by `package.json` `exports` (their `import.default` targets). */
export function entryModules(pkg: PackageJson = readPackageJson()): string[] {
  const entries: string[] = []
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    if (typeof target === 'string') continue // ./package.json
    const file = target.import?.default
    if (file === undefined) throw new Error(`exports["${subpath}"] has no import.default`)
    entries.push(sourceFor(file.replace(/^\.\//, '')))
  }
  return entries
}

function sourceFor(outputFile: string): string {
  const base = outputFile.replace(/\.js$/, '')
  for (const { source, output } of [...SOURCE_ROOTS].reverse()) {
    if (base.startsWith(`${output}/`)) {
      const candidate = `${source}/${base.slice(output.length + 1)}`
      for (const ext of ['.ts', '.tsx']) {
        if (existsSync(join(ROOT, candidate + ext))) return candidate + ext
      }
    }
  }
  throw new Error(`no source module for ${outputFile}`)
}

function readPackageJson(): PackageJson {
  return JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageJson
}

/** Every source module reachable from the entries, static and dynamic imports alike. */
async function reachableModules(entries: string[]): Promise<string[]> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: entries,
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'neutral',
    outdir: 'reachable', // not written
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  return Object.keys(result.metafile.inputs)
    .filter((file) => /\.tsx?$/.test(file))
    .sort()
}

/** Resolves a relative import of `importer` to its source module (repository-relative). */
function resolveSource(importer: string, specifier: string): string {
  const base = posix.join(posix.dirname(importer), specifier)
  const candidates = [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]
  if (/\.js$/.test(base)) candidates.unshift(base.replace(/\.js$/, '.ts'))
  const found = candidates.find((file) => existsSync(join(ROOT, file)))
  if (found === undefined) throw new Error(`${importer}: cannot resolve ${specifier}`)
  return found
}

/** The specifier that reaches `target`'s output from `importer`'s output. */
function outputSpecifier(importer: string, target: string, extension: string): string {
  const from = posix.dirname(outputBase(importer))
  const path = posix.relative(from, outputBase(target)) + extension
  return path.startsWith('.') ? path : `./${path}`
}

/** Keeps every import external; relative ones are pointed at the output file of their module. */
function rewriteImports(format: Format): Plugin {
  return {
    name: 'scope-connect-unbundled',
    setup(plugin) {
      plugin.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point') return undefined
        if (!args.path.startsWith('.')) return { path: args.path, external: true }
        const importer = relative(ROOT, args.importer).split('\\').join('/')
        const target = resolveSource(importer, args.path)
        return { path: outputSpecifier(importer, target, JS_EXTENSION[format]), external: true }
      })
    },
  }
}

async function emitJavaScript(modules: string[]): Promise<void> {
  for (const format of ['esm', 'cjs'] as const) {
    for (const { source, output } of SOURCE_ROOTS) {
      const entryPoints = modules.filter((file) => file.startsWith(`${source}/`))
      if (entryPoints.length === 0) continue
      await build({
        absWorkingDir: ROOT,
        entryPoints,
        outbase: source,
        outdir: output,
        bundle: true, // every import is external (plugin): one output per module, paths rewritten
        format,
        platform: 'neutral',
        target: 'es2022',
        outExtension: { '.js': JS_EXTENSION[format] },
        sourcemap: true,
        sourcesContent: false, // the sources ship in the package
        plugins: [rewriteImports(format)],
        logLevel: 'warning',
      })
    }
  }
}

/**
 * True when TypeScript, resolving `specifier` for a CommonJS file under `node16`, lands on types
 * that are ES modules (ky, @wallet-standard/*): a `.d.mts`, or a `.d.ts` in a `"type": "module"`
 * package. Such an import needs `resolution-mode: import` in a `.d.cts`.
 */
function typesAreEsmOnly(specifier: string): boolean {
  const resolved = ts.resolveModuleName(
    specifier,
    join(ROOT, 'src', 'consumer.cts'),
    { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 },
    ts.sys,
  ).resolvedModule?.resolvedFileName
  if (resolved === undefined) return false // e.g. `import('@metamask/sdk')` in a doc comment
  if (resolved.endsWith('.d.mts')) return true
  if (resolved.endsWith('.d.cts')) return false
  for (let dir = dirname(resolved); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest)) {
      return (JSON.parse(readFileSync(manifest, 'utf8')) as { type?: string }).type === 'module'
    }
  }
  return false
}

function rewriteDeclaration(text: string, sourceFile: string, format: Format): string {
  const relativeSpecifier = (specifier: string) =>
    outputSpecifier(sourceFile, resolveSource(sourceFile, specifier), JS_EXTENSION[format])
  let out = text
    // import … from './x', export … from './x'
    .replace(/(\bfrom\s+)(['"])(\.[^'"]*)\2/g, (_, from: string, quote: string, spec: string) => {
      return `${from}${quote}${relativeSpecifier(spec)}${quote}`
    })
    // import('./x') types
    .replace(
      /(\bimport\(\s*)(['"])(\.[^'"]*)\2/g,
      (_, call: string, quote: string, spec: string) => {
        return `${call}${quote}${relativeSpecifier(spec)}${quote}`
      },
    )
  if (format === 'cjs') {
    out = out
      .replace(
        /^import (type )?(\{[^}]*\}|\* as \w+) from (['"])([^.'"][^'"]*)\3;$/gm,
        (line, _type: string | undefined, names: string, quote: string, spec: string) =>
          typesAreEsmOnly(spec)
            ? `import type ${names} from ${quote}${spec}${quote} with { 'resolution-mode': 'import' };`
            : line,
      )
      .replace(/\bimport\((['"])([^.'"][^'"]*)\1\)/g, (call, quote: string, spec: string) =>
        typesAreEsmOnly(spec)
          ? `import(${quote}${spec}${quote}, { with: { 'resolution-mode': 'import' } })`
          : call,
      )
  }
  return out
}

function emitDeclarations(modules: string[]): void {
  const tmp = join(ROOT, TYPES_TMP)
  rmSync(tmp, { recursive: true, force: true })
  mkdirSync(tmp, { recursive: true })
  const tsconfig = join(tmp, '..', 'tsconfig.types.json')
  writeFileSync(
    tsconfig,
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        module: 'ESNext',
        moduleResolution: 'Bundler',
        types: [], // the library uses no Node built-ins; its types must not need @types/node
        strict: true,
        isolatedModules: true,
        verbatimModuleSyntax: true,
        skipLibCheck: true,
        declaration: true,
        emitDeclarationOnly: true,
        rootDir: ROOT,
        outDir: tmp,
      },
      files: modules.map((file) => join(ROOT, file)),
    }),
  )
  execFileSync(join(ROOT, 'node_modules/.bin/tsgo'), ['-p', tsconfig], { stdio: 'inherit' })
  // tsgo also emits the type-only modules (erased from the JavaScript) that declarations import.
  const declared = SOURCE_ROOTS.flatMap(({ source }) =>
    existsSync(join(tmp, source)) ? filesUnder(join(tmp, source), tmp) : [],
  ).filter((file) => file.endsWith('.d.ts'))
  for (const emittedFile of declared) {
    const file = emittedFile.replace(/\.d\.ts$/, '.ts')
    const text = readFileSync(join(tmp, emittedFile), 'utf8')
    for (const format of ['esm', 'cjs'] as const) {
      const target = join(ROOT, outputBase(file) + DTS_EXTENSION[format])
      mkdirSync(dirname(target), { recursive: true })
      writeFileSync(target, rewriteDeclaration(text, file, format))
    }
  }
  rmSync(join(tmp, '..'), { recursive: true, force: true })
}

/** Builds `dist/`; returns the source modules compiled. */
export async function buildPackage(): Promise<string[]> {
  const modules = await reachableModules(entryModules())
  rmSync(join(ROOT, OUT), { recursive: true, force: true })
  await emitJavaScript(modules)
  emitDeclarations(modules)
  return modules
}

/** Files under `dir`, relative to `base`, with forward slashes. */
export function filesUnder(dir: string, base = ROOT): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(join(dir, entry.name), base)
      : [relative(base, join(dir, entry.name)).split('\\').join('/')],
  )
}

const isEntryPoint = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1])
if (isEntryPoint) {
  const started = Date.now()
  const modules = await buildPackage()
  console.log(
    `built ${modules.length} modules into ${OUT}/ (ESM, CJS, d.ts, d.cts) in ${Date.now() - started} ms`,
  )
}
