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
import { pathToFileURL } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import commonjs from '@rollup/plugin-commonjs'
import { nodeResolve } from '@rollup/plugin-node-resolve'
import { build, type Plugin as EsbuildPlugin, transform } from 'esbuild'
import { type ModuleJSON, type Plugin, rollup } from 'rollup'

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
  return withBrotli(bytes.length, gzipSync(bytes, { level: 9 }).length, () => {
    return brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length
  })
}

/**
 * A size whose brotli figure is computed when first read: brotli -11 took 18 of the budgets test's
 * ~85 CPU seconds, and only the report (docs/bundle-size.md) reads it.
 */
function withBrotli(raw: number, gzip: number, brotli: () => number): Size {
  let computed: number | undefined
  return {
    raw,
    gzip,
    get brotli() {
      computed ??= brotli()
      return computed
    },
  }
}

function sum(sizes: Size[]): Size {
  return withBrotli(
    sizes.reduce((total, size) => total + size.raw, 0),
    sizes.reduce((total, size) => total + size.gzip, 0),
    () => sizes.reduce((total, size) => total + size.brotli, 0),
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
    .map(({ chunk, size }): Chunk => {
      const name = chunk.facade ? moduleName(chunk.facade) : `shared chunk ${chunk.id}`
      return {
        name,
        raw: size.raw,
        gzip: size.gzip,
        get brotli() {
          return size.brotli
        },
      }
    })
  return finish(initial, lazy)
}

async function withEsbuild(
  source: string,
  resolveDir: string,
  external: readonly string[] = [],
  plugins: EsbuildPlugin[] = [],
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
    plugins,
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

/**
 * Modules Rollup has parsed and transformed, per consumer and `external` list (a cached module keeps
 * its resolved imports, external ones included). A later bundle reuses a module whose loaded code is
 * the same (Rollup compares it), so each file of the consumer's `node_modules` is parsed once per
 * run, not once per bundle; the output is the same. Bundles asked for at once wait for the first
 * of their key, whose modules they then reuse.
 */
const rollupModules = new Map<string, { modules: Map<string, ModuleJSON>; first: Promise<void> }>()

async function bundleWithRollup(
  source: string,
  resolveDir: string,
  external: readonly string[] = [],
  extra?: Plugin,
) {
  const cacheKey = JSON.stringify([resolveDir, [...external].sort()])
  const cached = rollupModules.get(cacheKey)
  const modules = cached?.modules ?? new Map<string, ModuleJSON>()
  let firstDone = () => {}
  if (cached) await cached.first
  else rollupModules.set(cacheKey, { modules, first: new Promise((done) => (firstDone = done)) })
  try {
    return await bundleWithRollupCache(source, resolveDir, external, modules, extra)
  } finally {
    firstDone()
  }
}

async function bundleWithRollupCache(
  source: string,
  resolveDir: string,
  external: readonly string[],
  modules: Map<string, ModuleJSON>,
  extra?: Plugin,
) {
  const bundle = await rollup({
    input: ENTRY,
    cache: { modules: [...modules.values()] },
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
      ...(extra ? [extra] : []),
    ],
  })
  for (const module of bundle.cache?.modules ?? []) modules.set(module.id, module)
  const generated = await bundle.generate({ format: 'es' })
  await bundle.close()
  return generated
}

async function withRollup(
  source: string,
  resolveDir: string,
  external: readonly string[] = [],
  extra?: Plugin,
): Promise<Measurement> {
  const { output } = await bundleWithRollup(source, resolveDir, external, extra)
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

/** A module of the same exports, all `undefined`, and no code (read from the module itself). */
async function emptyModule(path: string): Promise<string> {
  const names = Object.keys(await import(pathToFileURL(path).href))
  return names.map((name) => `export const ${name} = void 0`).join('\n')
}

/**
 * The same measurement as `measure`, with the modules `own` picks emptied: each keeps its export
 * names (as `undefined`), so the rest bundles as before, but none of their code is left, nor what
 * only they use, down to the statements of shared modules. A cross-check of `attribute`.
 */
export function measureEmptied(
  bundler: Bundler,
  source: string,
  resolveDir: string,
  own: (name: string) => boolean,
): Promise<Measurement> {
  if (bundler === 'esbuild')
    return withEsbuild(
      source,
      resolveDir,
      [],
      [
        {
          name: 'empty-modules',
          setup(setup) {
            setup.onLoad({ filter: /\.js$/ }, async (args) =>
              own(moduleName(args.path))
                ? { contents: await emptyModule(args.path), loader: 'js' }
                : undefined,
            )
          },
        },
      ],
    )
  return withRollup(source, resolveDir, [], {
    name: 'empty-modules',
    load: (id) => (own(moduleName(id)) ? emptyModule(id) : null),
  })
}

/** What a group of modules adds to an entry's initial code (see `attribute`). */
export interface Attribution {
  /** gzip of the initial code, each chunk minified on its own. */
  withModules: number
  /** The same with the group's code cut out. */
  withoutModules: number
  /** `withModules - withoutModules`: what the group adds. */
  added: number
  /** The modules counted (package-relative), by their minified bytes, largest first. */
  modules: { name: string; raw: number }[]
}

/**
 * The modules of the initial code that belong to the group: its own (`own(name)`) and those the
 * entry reaches only through them (static imports; what an `import()` reaches loads later anyway).
 */
function groupOf(
  entry: string,
  imports: (id: string) => string[],
  initial: string[],
  own: (name: string) => boolean,
): Set<string> {
  const shared = new Set<string>()
  const queue = [entry]
  while (queue.length > 0) {
    const id = queue.pop() as string
    if (shared.has(id) || own(moduleName(id))) continue
    shared.add(id)
    queue.push(...imports(id))
  }
  return new Set(initial.filter((id) => own(moduleName(id)) || !shared.has(id)))
}

/**
 * Sizes by code, minified once: the attributions of one bundle minify the same chunks (and often
 * the same modules) again for each group.
 */
const minifiedSizes = new Map<string, Promise<{ gzip: number; raw: number }>>()

function minifiedGzip(code: string): Promise<{ gzip: number; raw: number }> {
  let sizes = minifiedSizes.get(code)
  if (!sizes) {
    sizes = transform(code, {
      minify: true,
      target: TARGET,
      format: 'esm',
      legalComments: 'none',
    }).then(({ code: minified }) => ({
      gzip: gzipSync(minified, { level: 9 }).length,
      raw: Buffer.byteLength(minified),
    }))
    minifiedSizes.set(code, sizes)
  }
  return sizes
}

async function cutAndMeasure(
  chunks: { code: string; parts: { id: string; code: string }[] }[],
  group: Set<string>,
): Promise<Attribution> {
  let withModules = 0
  let withoutModules = 0
  const modules: { name: string; raw: number }[] = []
  for (const chunk of chunks) {
    // Without the chunk's export list on both sides: it names what the cut removes.
    const code = chunk.code.replace(/^export \{[^}]*\};?\s*$/m, '')
    let cut = code
    for (const part of chunk.parts) {
      if (!group.has(part.id) || part.code.trim() === '') continue
      if (!cut.includes(part.code)) throw new Error(`the code of ${part.id} is not in its chunk`)
      cut = cut.replace(part.code, '')
      modules.push({ name: moduleName(part.id), raw: (await minifiedGzip(part.code)).raw })
    }
    withModules += (await minifiedGzip(code)).gzip
    withoutModules += (await minifiedGzip(cut)).gzip
  }
  modules.sort((a, b) => b.raw - a.raw)
  return { withModules, withoutModules, added: withModules - withoutModules, modules }
}

/** The initial chunks' ids: the entry chunk and its static-import closure. */
function closure(entry: string, imports: (id: string) => string[]): string[] {
  const seen = new Set<string>()
  const queue = [entry]
  while (queue.length > 0) {
    const id = queue.pop() as string
    if (seen.has(id)) continue
    seen.add(id)
    queue.push(...imports(id))
  }
  return [...seen]
}

/** A bundle split by module, ready to have a group cut out (`cutAndMeasure`). */
interface AttributionBundle {
  entry: string
  imports: (id: string) => string[]
  initialModules: string[]
  chunks: { code: string; parts: { id: string; code: string }[] }[]
}

async function bundleWithEsbuildForAttribution(
  source: string,
  resolveDir: string,
): Promise<AttributionBundle> {
  // Unminified, so each module's code stands under its `// path` line and can be cut out.
  const result = await build({
    stdin: { contents: source, resolveDir, sourcefile: 'entry.js', loader: 'js' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['production', 'module'],
    target: TARGET,
    legalComments: 'none',
    outdir: '/virtual-out',
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  const { inputs, outputs } = result.metafile
  const staticImports = (list: { path: string; kind: string; external?: boolean }[]) =>
    list.filter((i) => i.kind === 'import-statement' && !i.external).map((i) => i.path)
  const entryKey = Object.keys(outputs).find((key) => key.endsWith('/stdin.js'))
  const entryInput = Object.keys(inputs).find((key) => key.endsWith('/entry.js'))
  if (!entryKey || !entryInput) throw new Error('esbuild produced no entry chunk')
  const initialChunks = closure(entryKey, (key) => staticImports(outputs[key]?.imports ?? []))
  const initialModules = initialChunks.flatMap((key) => Object.keys(outputs[key]?.inputs ?? {}))
  const chunks = initialChunks.map((key) => {
    const file = result.outputFiles.find((output) => output.path === resolve(key))
    const code = file?.text ?? ''
    const lines = code.split('\n')
    const parts: { id: string; code: string }[] = []
    let current: { id: string; lines: string[] } | null = null
    for (const line of lines) {
      const marker = line.startsWith('// ') ? line.slice(3) : null
      if (marker !== null && marker in (outputs[key]?.inputs ?? {})) {
        if (current) parts.push({ id: current.id, code: current.lines.join('\n') })
        current = { id: marker, lines: [line] }
      } else if (line.startsWith('export {') && current) {
        parts.push({ id: current.id, code: current.lines.join('\n') })
        current = null
      } else current?.lines.push(line)
    }
    if (current) parts.push({ id: current.id, code: current.lines.join('\n') })
    return { code, parts }
  })
  return {
    entry: entryInput,
    imports: (id) => staticImports(inputs[id]?.imports ?? []),
    initialModules,
    chunks,
  }
}

async function bundleWithRollupForAttribution(
  source: string,
  resolveDir: string,
): Promise<AttributionBundle> {
  let graph = new Map<string, string[]>()
  const { output } = await bundleWithRollup(source, resolveDir, [], {
    name: 'module-graph',
    generateBundle() {
      graph = new Map(
        [...this.getModuleIds()].map((id) => [
          id,
          [...(this.getModuleInfo(id)?.importedIds ?? [])],
        ]),
      )
    },
  })
  const entry = output.find((chunk) => chunk.type === 'chunk' && chunk.isEntry)
  if (entry?.type !== 'chunk') throw new Error('Rollup produced no entry chunk')
  const byName = new Map(output.map((chunk) => [chunk.fileName, chunk]))
  const initialChunks = closure(entry.fileName, (name) => {
    const chunk = byName.get(name)
    return chunk?.type === 'chunk' ? chunk.imports : []
  })
    .map((name) => byName.get(name))
    .filter((chunk) => chunk?.type === 'chunk')
  return {
    entry: ENTRY,
    imports: (id) => graph.get(id) ?? [],
    initialModules: initialChunks.flatMap((chunk) => Object.keys(chunk.modules)),
    chunks: initialChunks.map((chunk) => ({
      code: chunk.code,
      parts: Object.entries(chunk.modules).map(([id, info]) => ({ id, code: info.code ?? '' })),
    })),
  }
}

/**
 * Bundles by (bundler, source, folder), made once: the bundle does not depend on the group, and a
 * caller attributes several groups of the same entry (test/package/budgets.test.ts: eight).
 */
const attributionBundles = new Map<string, Promise<AttributionBundle>>()

/**
 * What the modules `own` picks (package-relative names such as `dist/machines/client/x.js`) add
 * to the initial code of `source`: those modules and every module the entry reaches only through
 * them are cut out of the initial chunks, and the gzip of the chunks with and without them is
 * compared (each chunk minified on its own by esbuild, for both bundlers, so the two sides differ
 * only by the cut).
 */
export function attribute(
  bundler: Bundler,
  source: string,
  resolveDir: string,
  own: (name: string) => boolean,
): Promise<Attribution> {
  const key = JSON.stringify([bundler, source, resolveDir])
  let bundle = attributionBundles.get(key)
  if (!bundle) {
    bundle =
      bundler === 'esbuild'
        ? bundleWithEsbuildForAttribution(source, resolveDir)
        : bundleWithRollupForAttribution(source, resolveDir)
    attributionBundles.set(key, bundle)
  }
  return bundle.then(({ entry, imports, initialModules, chunks }) =>
    cutAndMeasure(chunks, groupOf(entry, imports, initialModules, own)),
  )
}

/** 1 KB = 1024 bytes, two decimals. */
export function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(2)} KB`
}
