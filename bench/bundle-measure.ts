/**
 * Measures what an app pays for an import, the way an app is built: a virtual entry module
 * (`export { isAppError } from 'scope-connect'`) resolved from a consumer project, bundled for the
 * browser with code splitting, minified, then compressed. Shared by `bench/bundle-size.ts` (the
 * figures in docs/bundle-size.md) and `test/package/budgets.test.ts` (the budgets).
 *
 * Two bundlers: esbuild, and Rollup (the bundler under Vite's production builds) with
 * `@rollup/plugin-node-resolve` (browser, ESM conditions), its output minified by esbuild.
 * `initial` is the entry chunk: what loads before any `import()`; `lazy` are the chunks behind
 * dynamic imports (a connector loaded by `selectWallet`), named after the module they start from.
 */
import { builtinModules } from 'node:module'
import { resolve } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import commonjs from '@rollup/plugin-commonjs'
import { nodeResolve } from '@rollup/plugin-node-resolve'
import { build, transform } from 'esbuild'
import { rollup } from 'rollup'

export type Bundler = 'esbuild' | 'rollup'

export interface Size {
  /** Minified bytes. */
  raw: number
  /** gzip level 9. */
  gzip: number
  /** brotli quality 11. */
  brotli: number
}

export interface Chunk extends Size {
  /** The module a lazy chunk starts from (package-relative, e.g. `dist/connectors/eip6963.js`). */
  name: string
}

export interface Measurement {
  initial: Size
  lazy: Chunk[]
  /** Everything the entry can ever load: initial plus every lazy chunk. */
  total: Size
}

const ENTRY = '\0entry.js'
const TARGET = 'es2022'

export function size(code: Uint8Array | string): Size {
  const bytes = typeof code === 'string' ? Buffer.from(code) : code
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  }
}

function sum(sizes: Size[]): Size {
  return sizes.reduce(
    (a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip, brotli: a.brotli + b.brotli }),
    { raw: 0, gzip: 0, brotli: 0 },
  )
}

/** `…/node_modules/scope-connect/dist/x.js` → `dist/x.js`; other paths as they are. */
function moduleName(path: string): string {
  const normalized = path.split('\\').join('/')
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(normalized)
  if (!match) return normalized
  return match[1] === 'scope-connect' ? (match[2] ?? normalized) : `${match[1]}/${match[2]}`
}

interface RawChunk {
  id: string
  code: Uint8Array | string
  /** The module a chunk behind `import()` starts from. */
  facade?: string
  staticImports: string[]
}

/** Splits chunks into what loads with the entry (static-import closure) and what loads later. */
async function split(entry: string, chunks: RawChunk[], minify: boolean): Promise<Measurement> {
  const byId = new Map(chunks.map((chunk) => [chunk.id, chunk]))
  const initialIds = new Set<string>()
  const queue = [entry]
  while (queue.length > 0) {
    const id = queue.pop() as string
    if (initialIds.has(id)) continue
    initialIds.add(id)
    queue.push(...(byId.get(id)?.staticImports ?? []))
  }
  const measured = await Promise.all(
    chunks.map(async (chunk) => {
      const code = minify
        ? (
            await transform(chunk.code, {
              minify: true,
              target: TARGET,
              format: 'esm',
              legalComments: 'none',
            })
          ).code
        : chunk.code
      return { chunk, size: size(code) }
    }),
  )
  const initial = sum(measured.filter(({ chunk }) => initialIds.has(chunk.id)).map((m) => m.size))
  const lazy = measured
    .filter(({ chunk }) => !initialIds.has(chunk.id))
    .map(({ chunk, size }) => ({
      name: chunk.facade ? moduleName(chunk.facade) : `shared chunk ${chunk.id}`,
      ...size,
    }))
  return finish(initial, lazy)
}

async function withEsbuild(
  source: string,
  resolveDir: string,
  external: readonly string[],
): Promise<Measurement> {
  const result = await build({
    stdin: { contents: source, resolveDir, sourcefile: 'entry.js', loader: 'js' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['production', 'module'],
    target: TARGET,
    minify: true,
    legalComments: 'none',
    outdir: '/virtual-out',
    external: [...external],
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  const chunks: RawChunk[] = []
  let entry: string | undefined
  for (const [key, meta] of Object.entries(result.metafile.outputs)) {
    if (!key.endsWith('.js')) continue
    const id = resolve(key)
    const file = result.outputFiles.find((output) => output.path === id)
    if (!file) continue
    // The stdin entry's chunk is `stdin.js`; a lazy chunk's `entryPoint` is the imported module.
    if (id.endsWith('/stdin.js')) entry = id
    chunks.push({
      id,
      code: file.contents,
      ...(meta.entryPoint && !id.endsWith('/stdin.js') ? { facade: meta.entryPoint } : {}),
      staticImports: meta.imports
        .filter((imported) => imported.kind === 'import-statement' && !imported.external)
        .map((imported) => resolve(imported.path)),
    })
  }
  if (!entry) throw new Error('esbuild produced no entry chunk')
  return split(entry, chunks, false)
}

async function withRollup(
  source: string,
  resolveDir: string,
  external: readonly string[],
): Promise<Measurement> {
  const bundle = await rollup({
    input: ENTRY,
    external: (id) => external.some((name) => id === name || id.startsWith(`${name}/`)),
    onwarn(warning) {
      // Node built-ins some stacks import stay external, as in Vite; anything else is an error.
      const id = warning.exporter ?? ''
      if (
        warning.code === 'UNRESOLVED_IMPORT' &&
        !builtinModules.includes(id.replace(/^node:/, ''))
      ) {
        throw new Error(`Rollup cannot resolve ${id}`)
      }
    },
    plugins: [
      {
        name: 'virtual-entry',
        resolveId: (id) => (id === ENTRY ? ENTRY : null),
        load: (id) => (id === ENTRY ? source : null),
      },
      {
        name: 'resolve-entry-imports-from-the-consumer',
        // The virtual entry has no directory; resolve its imports as if it sat in the consumer.
        async resolveId(id, importer) {
          if (importer !== ENTRY) return null
          return this.resolve(id, `${resolveDir}/entry.js`, { skipSelf: true })
        },
      },
      nodeResolve({
        browser: true,
        rootDir: resolveDir,
        // `production` as a production build has it (the plugin picks `development` from
        // NODE_ENV otherwise, which vitest sets to `test`).
        exportConditions: ['browser', 'module', 'import', 'default', 'production'],
      }),
      // CommonJS dependencies of other stacks (dayjs, eventemitter3), as Vite's build converts them.
      commonjs(),
    ],
  })
  const { output } = await bundle.generate({ format: 'es' })
  await bundle.close()
  const chunks: RawChunk[] = []
  let entry: string | undefined
  for (const chunk of output) {
    if (chunk.type !== 'chunk') continue
    if (chunk.isEntry) entry = chunk.fileName
    chunks.push({
      id: chunk.fileName,
      code: chunk.code,
      ...(chunk.isDynamicEntry && chunk.facadeModuleId ? { facade: chunk.facadeModuleId } : {}),
      staticImports: chunk.imports,
    })
  }
  if (!entry) throw new Error('Rollup produced no entry chunk')
  return split(entry, chunks, true)
}

function finish(initial: Size, lazy: Chunk[]): Measurement {
  lazy.sort((a, b) => a.name.localeCompare(b.name))
  return { initial, lazy, total: sum([initial, ...lazy]) }
}

/**
 * Bundles `source` (an ES module importing packages installed under `resolveDir`); the `external`
 * packages (and their subpaths) stay imports, as peer dependencies an app already ships.
 */
export function measure(
  bundler: Bundler,
  source: string,
  resolveDir: string,
  external: readonly string[] = [],
): Promise<Measurement> {
  return bundler === 'esbuild'
    ? withEsbuild(source, resolveDir, external)
    : withRollup(source, resolveDir, external)
}

/** 1 KB = 1024 bytes, two decimals. */
export function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(2)} KB`
}
