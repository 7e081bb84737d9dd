/**
 * Where a scenario's entry bytes are: the scenario of `bench/bundle-scenarios.ts` (matched by a part
 * of its name) bundled from the packed tarball as `bench/bundle-size.ts` does (esbuild, code
 * splitting, minified), and the initial chunks' minified bytes per input module (esbuild's
 * metafile `bytesInOutput`), by package or folder and then module by module, largest first. The
 * gzip figure is the initial code's, as in docs/bundle-size.md; the per-module bytes are minified,
 * before gzip. Prints only (issue 30, item 7: what to cut for the budgets).
 *
 *   npx tsx bench/bundle-modules.ts '`Client` (before'
 *   npx tsx bench/bundle-modules.ts createBalanceReader --top 20
 *   npx tsx bench/bundle-modules.ts 'UI elements' --core   (every chunk its total budget counts)
 */
import { resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { createConsumer, packTarball } from '../test/support/packed'
import { kb } from './bundle-measure'
import { LIBRARY_SCENARIOS } from './bundle-scenarios'

const [query, ...flags] = process.argv.slice(2)
const topFlag = flags.indexOf('--top')
const top = topFlag >= 0 ? Number(flags[topFlag + 1]) : 40
// `--core`: the chunks `coreTotal` counts (the initial ones and every lazy one without its own budget).
const core = flags.includes('--core')
const scenario = LIBRARY_SCENARIOS.find((s) => query !== undefined && s.name.includes(query))
if (!scenario) {
  console.error(`No scenario named like ${JSON.stringify(query)}. Scenarios:`)
  for (const s of LIBRARY_SCENARIOS) console.error(`  ${s.name}`)
  process.exit(1)
}

/** `…/node_modules/scope-connect/dist/x.js` → `dist/x.js`; a dependency → its package name. */
function group(input: string): { module: string; group: string } {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(input)
  if (!match) return { module: input, group: input }
  if (match[1] !== 'scope-connect')
    return { module: `${match[1]}/${match[2]}`, group: match[1] ?? '' }
  const path = match[2] ?? input
  return { module: path, group: path.split('/').slice(0, 2).join('/') }
}

const consumer = createConsumer(packTarball())
try {
  const result = await build({
    stdin: {
      contents: scenario.source,
      resolveDir: consumer.dir,
      sourcefile: 'entry.js',
      loader: 'js',
    },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['production', 'module'],
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    outdir: '/virtual-out',
    external: [...(scenario.external ?? [])],
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  const { outputs } = result.metafile
  const entry = Object.keys(outputs).find((key) => key.endsWith('/stdin.js'))
  if (!entry) throw new Error('esbuild produced no entry chunk')
  const optional = Object.keys(scenario.optionalChunks ?? {})
  const isOptional = (path: string) =>
    optional.some((name) => outputs[path]?.entryPoint?.endsWith(name.replace(/^dist\//, '')))
  const initial = new Set<string>()
  const queue = [entry]
  while (queue.length > 0) {
    const key = queue.pop() as string
    if (initial.has(key)) continue
    initial.add(key)
    for (const i of outputs[key]?.imports ?? [])
      if ((core || i.kind === 'import-statement') && !i.external && !isOptional(i.path))
        queue.push(i.path)
  }
  let gzip = 0
  const modules = new Map<string, number>()
  const groups = new Map<string, number>()
  for (const key of initial) {
    const file = result.outputFiles.find((output) => output.path === resolve(key))
    if (file) gzip += gzipSync(file.contents, { level: 9 }).length
    for (const [input, meta] of Object.entries(outputs[key]?.inputs ?? {})) {
      const named = group(input)
      modules.set(named.module, (modules.get(named.module) ?? 0) + meta.bytesInOutput)
      groups.set(named.group, (groups.get(named.group) ?? 0) + meta.bytesInOutput)
    }
  }
  const table = (rows: Map<string, number>, limit: number) =>
    [...rows]
      .filter(([, bytes]) => bytes > 0)
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([name, bytes]) => `| ${name} | ${bytes} |`)
      .join('\n')
  console.log(
    `${scenario.name}: ${core ? 'core total' : 'initial'} ${kb(gzip)} gzip (esbuild), ${initial.size} chunk(s)\n`,
  )
  console.log(`| Package or folder | minified bytes |\n|---|---:|\n${table(groups, Infinity)}\n`)
  console.log(`| Module | minified bytes |\n|---|---:|\n${table(modules, top)}`)
} finally {
  consumer.remove()
}
