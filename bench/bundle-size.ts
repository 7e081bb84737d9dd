/**
 * Bundle-size report from the package as users get it: `npm pack` (its `prepack` builds), the
 * tarball unpacked into a fresh consumer project, then each scenario of `bench/bundle-scenarios.ts`
 * bundled as an app would (browser, ESM, code splitting, minified) with esbuild and with Rollup,
 * gzip -9 and brotli -11. Other stacks are measured the same way from `bench/competitors`
 * (installed there on first run). Writes docs/bundle-size.md.
 *
 *   npm run bench:size                  # everything
 *   npm run bench:size -- --no-competitors
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createConsumer, packTarball, ROOT } from '../test/support/packed'
import {
  type Attribution,
  attribute,
  type Bundler,
  kb,
  type Measurement,
  measure,
  measureEmptied,
} from './bundle-measure'
import {
  COMPETITOR_SCENARIOS,
  coreTotal,
  LIBRARY_SCENARIOS,
  ROOT_MACHINE,
  type Scenario,
} from './bundle-scenarios'

const BUNDLERS: Bundler[] = ['esbuild', 'rollup']
const COMPETITORS = join(ROOT, 'bench', 'competitors')

interface Row {
  scenario: Scenario
  results: Partial<Record<Bundler, Measurement>>
  skipped?: string
}

async function measureAll(scenarios: Scenario[], resolveDir: string, exported: string[]) {
  const rows: Row[] = []
  for (const scenario of scenarios) {
    if (scenario.subpath && !exported.includes(scenario.subpath)) {
      rows.push({ scenario, results: {}, skipped: `\`${scenario.subpath}\` is not exported yet` })
      continue
    }
    const row: Row = { scenario, results: {} }
    for (const bundler of BUNDLERS) {
      try {
        row.results[bundler] = await measure(
          bundler,
          scenario.source,
          resolveDir,
          scenario.external,
        )
      } catch (error) {
        row.skipped = `${bundler} failed: ${String(error).split('\n')[0]}`
      }
    }
    console.log(
      `${scenario.name}: ${BUNDLERS.map((b) => `${b} ${sizeOf(row, b, 'initial')}`).join(', ')}`,
    )
    rows.push(row)
  }
  return rows
}

/** Gzip bytes of the entry chunk, or of everything it loads (the optional chunks aside). */
function gzipOf(row: Row, bundler: Bundler, part: 'initial' | 'total'): number {
  const result = row.results[bundler]
  if (!result) return Number.NaN
  return part === 'total' ? coreTotal(row.scenario, result) : result.initial.gzip
}

function sizeOf(row: Row, bundler: Bundler, part: 'initial' | 'total'): string {
  const gzip = gzipOf(row, bundler, part)
  return Number.isNaN(gzip) ? '–' : kb(gzip)
}

function verdictOf(row: Row, part: 'initial' | 'total', budget: number | undefined): string {
  if (budget === undefined) return ''
  const worst = Math.max(...BUNDLERS.map((b) => gzipOf(row, b, part)))
  const label = part === 'total' ? `total ${kb(budget)}` : kb(budget)
  if (Number.isNaN(worst)) return `${label}: not measured`
  return worst <= budget ? `${label}: met` : `${label}: **over**`
}

function verdict(row: Row): string {
  return [
    verdictOf(row, 'initial', row.scenario.budget),
    verdictOf(row, 'total', row.scenario.totalBudget),
  ]
    .filter(Boolean)
    .join('; ')
}

function libraryTable(rows: Row[]): string {
  const lines = [
    '| Scenario | esbuild initial | Rollup initial | esbuild total | Rollup total | brotli (esbuild initial) | Budget (gzip, initial) |',
    '|---|---:|---:|---:|---:|---:|---|',
  ]
  for (const row of rows) {
    if (row.skipped && Object.keys(row.results).length === 0) {
      lines.push(`| ${row.scenario.name} | skipped: ${row.skipped} | | | | | |`)
      continue
    }
    const brotli = row.results.esbuild ? kb(row.results.esbuild.initial.brotli) : '–'
    lines.push(
      `| ${row.scenario.name} | ${sizeOf(row, 'esbuild', 'initial')} | ${sizeOf(row, 'rollup', 'initial')} | ${sizeOf(row, 'esbuild', 'total')} | ${sizeOf(row, 'rollup', 'total')} | ${brotli} | ${verdict(row)} |`,
    )
  }
  return lines.join('\n')
}

function lazyTable(row: Row | undefined): string {
  const lines = ['| Chunk (loaded on demand) | esbuild | Rollup |', '|---|---:|---:|']
  const names = new Set(BUNDLERS.flatMap((b) => row?.results[b]?.lazy.map((c) => c.name) ?? []))
  for (const name of [...names].sort()) {
    const cell = (b: Bundler) => {
      const chunk = row?.results[b]?.lazy.find((c) => c.name === name)
      return chunk ? kb(chunk.gzip) : '–'
    }
    lines.push(`| \`${name}\` | ${cell('esbuild')} | ${cell('rollup')} |`)
  }
  return names.size === 0
    ? '_No lazy chunks yet: every connector is still bundled into the `Client` entry (the lazy\nconnectors of the Client rewrite split them out)._'
    : lines.join('\n')
}

function competitorTable(rows: Row[], ours: Row[]): string {
  const lines = [
    '| Stack | esbuild initial | Rollup initial | esbuild total | Rollup total |',
    '|---|---:|---:|---:|---:|',
  ]
  for (const row of [...ours, ...rows]) {
    if (row.skipped && Object.keys(row.results).length === 0) {
      lines.push(`| ${row.scenario.name} | skipped: ${row.skipped} | | | |`)
      continue
    }
    lines.push(
      `| ${row.scenario.name} | ${sizeOf(row, 'esbuild', 'initial')} | ${sizeOf(row, 'rollup', 'initial')} | ${sizeOf(row, 'esbuild', 'total')} | ${sizeOf(row, 'rollup', 'total')} |`,
    )
  }
  return lines.join('\n')
}

interface RootShare {
  share: Attribution
  /** The `Client` entry as shipped, and with every `machines/client/` module emptied. */
  entry: number
  emptied: number
}

function rootMachineTable(shares: Record<Bundler, RootShare>): string {
  const lines = [
    '| Bundler | `Client` initial, chunks minified alone | without the root machine | **the root machine adds** | Budget | cross-check: `Client` initial − the same with `machines/client/` emptied |',
    '|---|---:|---:|---:|---|---:|',
  ]
  for (const bundler of BUNDLERS) {
    const { share, entry, emptied } = shares[bundler]
    const met = share.added <= ROOT_MACHINE.budget ? 'met' : '**over**'
    lines.push(
      `| ${bundler === 'esbuild' ? 'esbuild' : 'Rollup'} | ${kb(share.withModules)} | ${kb(share.withoutModules)} | **${kb(share.added)}** | ${kb(ROOT_MACHINE.budget)}: ${met} | ${kb(entry)} − ${kb(emptied)} = ${kb(entry - emptied)} |`,
    )
  }
  const modules = shares.esbuild.share.modules
    .map((module) => `\`${module.name}\` (${(module.raw / 1024).toFixed(2)} KB minified)`)
    .join(', ')
  return `${lines.join('\n')}\n\nCounted (esbuild): ${modules}.`
}

function installCompetitors(): boolean {
  if (existsSync(join(COMPETITORS, 'node_modules'))) return true
  console.log('installing bench/competitors (npm install, once)…')
  try {
    execFileSync('npm', ['install', '--no-audit', '--no-fund'], {
      cwd: COMPETITORS,
      stdio: 'inherit',
    })
    return true
  } catch {
    return false
  }
}

async function main(): Promise<void> {
  const withCompetitors = !process.argv.includes('--no-competitors')
  const tarball = packTarball()
  // `@xstate/react` for the React row that bundles it (an optional peer: not linked by default).
  const consumer = createConsumer(tarball, ['@xstate/react'])
  const manifest = JSON.parse(readFileSync(join(consumer.packageDir, 'package.json'), 'utf8')) as {
    version: string
    exports: Record<string, unknown>
  }
  const exported = Object.keys(manifest.exports)
  const library = await measureAll(LIBRARY_SCENARIOS, consumer.dir, exported)
  const rootShares = {} as Record<Bundler, RootShare>
  for (const bundler of BUNDLERS) {
    const [share, entry, emptied] = await Promise.all([
      attribute(bundler, ROOT_MACHINE.source, consumer.dir, ROOT_MACHINE.own),
      measure(bundler, ROOT_MACHINE.source, consumer.dir),
      measureEmptied(bundler, ROOT_MACHINE.source, consumer.dir, ROOT_MACHINE.own),
    ])
    rootShares[bundler] = { share, entry: entry.initial.gzip, emptied: emptied.initial.gzip }
    console.log(
      `the root machine adds ${kb(share.added)} with ${bundler} (emptied: ${kb(entry.initial.gzip - emptied.initial.gzip)})`,
    )
  }
  consumer.remove()

  const competitorsInstalled = withCompetitors && installCompetitors()
  const competitors = competitorsInstalled
    ? await measureAll(COMPETITOR_SCENARIOS, COMPETITORS, [])
    : []
  const competitorVersions = JSON.parse(
    readFileSync(join(COMPETITORS, 'package.json'), 'utf8'),
  ) as { dependencies: Record<string, string> }
  const client = library.find((row) => row.scenario.name.startsWith('`Client`'))
  const whole = library.find((row) => row.scenario.name.startsWith('whole package'))
  const over = library.filter((row) => verdict(row).includes('over'))

  const markdown = `# Bundle size

Generated by \`npm run bench:size\` (\`bench/bundle-size.ts\`); do not edit by hand. The budgets
are enforced by \`test/package/budgets.test.ts\` on every \`npm test\`.

- Date: ${new Date().toISOString().slice(0, 10)}; Node ${process.version}; scope-connect ${manifest.version}.
- **From the published package**: \`npm pack\` (whose \`prepack\` runs the build), the tarball
  unpacked into a fresh consumer project (\`node_modules/scope-connect\`, dependencies at the locked
  versions), and an entry module per scenario such as \`export { isAppError } from 'scope-connect'\`.
- Each entry is bundled for the browser twice: **esbuild** (\`bundle\`, \`splitting\`, \`minify\`,
  ESM, \`es2022\`) and **Rollup** 4 (the bundler under Vite's builds) with
  \`@rollup/plugin-node-resolve\` (browser and ESM conditions) and \`@rollup/plugin-commonjs\`, its
  chunks minified by esbuild.
- **initial** = the entry chunk and every chunk it imports statically: what loads before any
  \`import()\`. **total** = initial plus every chunk behind a dynamic import (a connector that
  \`selectWallet\` loads); for the UI, the optional chunks of [ui.md](ui.md#size) aside: icons, locales, Get a wallet…. gzip -9 unless said otherwise; 1 KB = 1024 bytes.
- Sizes depend only on the code, not on the machine: these figures are exact for this commit.

## The library

${libraryTable(library)}

${over.length === 0 ? 'Every budget is met.' : `Over budget: ${over.map((row) => row.scenario.name).join(', ')}.`}

Why it tree-shakes: the build (\`scripts/build.ts\`) emits one ES module per source module
(no shared chunks), and every top-level factory call (the zod/mini wire schemas, the registry's
frozen tables and indexes, the loggers) is marked \`/* @__PURE__ */\`, so with
\`"sideEffects": false\` a bundler drops every module and every schema an app does not use.
\`test/package/side-effects.test.ts\` checks that no module of the packed \`dist/\` keeps any code of
its own when imported for nothing.

Why the \`Client\` and the connectors have entries of their own (\`scope-connect/client\`,
\`scope-connect/connectors\`): \`selectWallet\` loads the connector it picks with \`import()\`, and
esbuild with code splitting stops honouring \`"sideEffects": false\` as soon as a build holds an
\`import()\` (evanw/esbuild#1110): every module the entry reaches whose code a lazy chunk also uses
is then loaded up front. Kept out of the root entry, that import cannot cost \`isAppError\` users
anything; an app that uses the \`Client\` and root functions together pays it with esbuild (the
"typical app" row) but not with Rollup. wagmi meets the same behaviour (its esbuild figure below).

The React rows leave the app's own \`react\` (and, where said, \`@xstate/react\`) out: they are
peer dependencies a React app ships anyway, so the rows show what \`scope-connect/react\` adds.
The entry imports the \`Client\` as a type only: the hooks alone do not pull the \`Client\` in.

### What the root machine adds to the \`Client\` entry

Issue 8 allowed the root machine (\`machines/client/\`) at most 3.00 KB gzip of the
\`Client\` entry. Issue 15 raised it to 3.25 KB for what it asked of the chart (+0.25 KB with both
bundlers): the failure of every child handled where it starts (\`connection\` and \`sign\` gained
\`onError\`), every read's end handled (\`endRead\`), the pairing's wait bounded by
\`walletAnswerMs\`, and the waits' deadlines on an injected clock (\`clientTimekeeping\`); the
\`Client\` entry stayed within 28 KB. Issues 18 and 20 (2026-11-26) raised the root machine's
budget to ${kb(ROOT_MACHINE.budget)} and the entry's to 31 KB for the \`reconnect\` and
\`switchChain\` flows (\`wallet.reconnecting\`, \`wallet.switchingChain\`, the project's chains
for \`chainSupported\`), the \`Client\`'s connection store, and the \`transaction\` child the root
spawns beside the connection (\`SEND_TRANSACTION\`, \`WATCH_TRANSACTION\`; the transaction machine
itself loads with the first \`sendTransaction\`); \`createBalanceReader\` went to 15.5 KB with
\`getBalances\` and its batch schemas (issue 19). Measured by \`attribute()\` in \`bench/bundle-measure.ts\`, from the same tarball
and consumer, with both bundlers, and enforced by \`test/package/budgets.test.ts\`:

1. The entry \`export { Client } from 'scope-connect/client'\` is bundled as above but not
   minified, so each module's code stands apart (esbuild marks it with its path; Rollup reports
   each module's rendered code per chunk).
2. The root machine's modules are its own (every \`dist/machines/client/*.js\`) plus every module
   the entry reaches **only** through them (static imports from the entry that do not pass
   through \`machines/client/\`; what an \`import()\` reaches loads later anyway). A module the
   \`Client\` also uses on its own (\`AppError\`, xstate) is not counted.
3. Their code is cut out of the initial chunks; each chunk, with and without the cut (and without
   its export list, which names what was cut), is minified on its own by esbuild and gzipped -9.
   The root machine adds the difference of the two sums: what its code weighs in the entry,
   compression context included.

${rootMachineTable(rootShares)}

The first column differs a little from the \`Client\` row above, which is minified as one bundle
(names mangled across modules).

The last column is a cross-check (\`measureEmptied\`): the entry bundled as the rows above are, once
as shipped and once with every \`dist/machines/client/*.js\` replaced by a module of the same
export names and no code. It also drops what only the root machine uses *inside* shared modules,
and that is where the two differ: without any statechart in the entry, Rollup leaves xstate's
statechart engine (\`StateMachine\`, \`setup\`, the action creators) to the first lazy machine, so
its cross-check counts the engine too; esbuild keeps the engine up front either way (the entry
reaches xstate, and the lazy machines share it). The budget counts the engine as the \`Client\`'s,
not the root machine's: the \`Client\` ran statecharts in its entry before the root machine (its
\`connect\` and \`sign\` machines were created there), and a root statechart cannot run without it;
what the root machine adds is its own code and what only it reaches. The cross-check also empties
the root's lazy modules (the \`connect\`/\`sign\` binding, the redaction, the persistence), so
esbuild's extra shared chunks for code the entry shares with them count too.

A baseline from the commit before the root machine is not used: the
same change moved the HTTP readers out of the entry (the \`Client\` was 34.62 KB esbuild / 33.33 KB
Rollup then, from the tarball), so the difference of the two entries mixes both. Before this
measure was enforced (\`6a8ec14\`) the root machine added 5.46 KB esbuild / 5.05 KB Rollup to an
entry of 28.20 KB / 25.82 KB. What keeps it small: the \`connect\` and \`sign\` machines load with
the first desktop connector (\`src/client/lazy/wallet.ts\`), the wallet registry and the
connector loader with the first connector of any kind (\`src/client/lazy/route.ts\`), the
universal-link machine, its
persistence and fingerprint with the universal-link connector, and the redaction only when the
\`Client\` is inspected (\`src/client/lazy/inspector.ts\`; events wait for it in order); the chart,
the view and the lazy-logic stand-in (\`createLazyLogic\`) stay, since the constructor creates the
root actor at once. The inspection plumbing the \`Client\` keeps up front (\`createDeferredInspector\`,
the secret registry) is in \`machines/shared/\` and counts as the \`Client\`'s, not the chart's; it
is in the \`Client\` row above either way.

The relay states (\`pair()\`) first took the root machine to 3.73 KB esbuild / 3.69 KB Rollup. It
came back under its budget by moving work to the children that own it, which load lazily: each
child reports its connection in the one shape the root keeps and its output says why it ended
(the root no longer maps CAIP-10 accounts or end statuses); \`exit\`/\`entry\` actions instead of
the same action on every transition out of a state; one \`forward\` action for the three
children; one placeholder for the seven actors the facade provides; and the chart's state
descriptions, which only the diagram's reader needs, live with the diagram
(\`visualizations/descriptions.ts\`).

### Connector chunks of the \`Client\`

${lazyTable(client)}

The rows "\`…Connector\` alone" above show what each connector costs imported on its own.

## Beside other stacks

${
  competitors.length === 0
    ? '_Not measured in this run (`--no-competitors`, or `bench/competitors` could not be installed)._'
    : `Measured in the same run, the same way, from \`bench/competitors\` (${Object.entries(
        competitorVersions.dependencies,
      )
        .map(([name, version]) => `\`${name}\` ${version}`)
        .join(', ')}). Each stack's entry does
what its docs' quick start does: wagmi \`createConfig\` with one chain, the \`injected\` connector
and an HTTP transport (plus \`getBalance\` and \`signMessage\`: wagmi reads balances over the
chain's public RPC, scope-connect through its backend); AppKit \`createAppKit\` with one network;
WalletConnect's \`SignClient\`; mipd's \`createStore\`.

${competitorTable(
  competitors,
  [client, whole].filter((row): row is Row => row !== undefined),
)}

esbuild's code splitting moves code shared by the entry and a lazy chunk into a shared chunk the
entry imports, so its "initial" is larger than Rollup's for stacks with many dynamic imports
(wagmi's viem, AppKit's icons and views); both are what an app would ship with that bundler.
AppKit loads its modal views and icons lazily (the "total" column).`
}

## Adding a scenario

Append to \`LIBRARY_SCENARIOS\` in \`bench/bundle-scenarios.ts\` (with a \`budget\` to enforce
one). A scenario whose \`subpath\` the package does not export yet is listed as skipped.
`
  const out = join(ROOT, 'docs', 'bundle-size.md')
  writeFileSync(out, markdown)
  console.log(`written ${out}`)
}

await main()
