/**
 * Bundle-size report: bundles small virtual entry points with esbuild (bundle, minify, ESM, browser,
 * tree shaking), measures raw, gzip (level 9) and brotli (quality 11) sizes, and writes
 * docs/bundle-size.md. Run: `npx tsx bench/bundle-size.ts` (or `npm run bench:size`).
 *
 * To add a row, append to ENTRIES (library rows) or REFERENCE_ENTRIES (comparisons). An entry whose
 * `requires` paths do not exist yet, or that fails to build, is listed as skipped with the reason.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { build } from 'esbuild'

interface Entry {
  /** Row label. */
  name: string
  /** Contents of the virtual entry module, resolved from the repository root. */
  source: string
  /** Paths (relative to the repository root) that must exist; otherwise the row is skipped. */
  requires?: string[]
}

/** The parts of the public API that need no network (the foundation issue's list). */
const PURE_API_SOURCE = `export * from './src/errors'
export { setConsoleLogging, setDebugMode } from './src/logging'
export * from './src/registry'
export * from './src/relay'
export {
  buildUniversalLinkUrl,
  createBrowserUniversalLinkStore,
  SOLANA_SIGN_TRANSACTION_METHOD,
  UNIVERSAL_LINK_PARAMS,
} from './src/universal-link'
export { buildSignedMessageEnvelope } from './src/wire/envelope'`

const ENTRIES: Entry[] = [
  {
    name: '`buildPairingUri`',
    source: "export { buildPairingUri } from './src/relay'",
    requires: ['src/relay/index.ts'],
  },
  {
    name: '`parsePairingUri`',
    source: "export { parsePairingUri } from './src/relay'",
    requires: ['src/relay/index.ts'],
  },
  {
    name: '`relayTokenExpired`',
    source: "export { relayTokenExpired } from './src/relay'",
    requires: ['src/relay/index.ts'],
  },
  {
    name: '`createPairing` (adds the CSPRNG)',
    source: "export { createPairing } from './src/relay'",
    requires: ['src/relay/index.ts'],
  },
  {
    name: '`buildUniversalLinkUrl`',
    source: "export { buildUniversalLinkUrl } from './src/universal-link'",
    requires: ['src/universal-link/index.ts'],
  },
  {
    name: '`createBrowserUniversalLinkStore` (adds the logger)',
    source: "export { createBrowserUniversalLinkStore } from './src/universal-link'",
    requires: ['src/universal-link/index.ts'],
  },
  {
    name: 'registry lookups (`src/registry`, all)',
    source: "export * from './src/registry'",
    requires: ['src/registry/index.ts'],
  },
  {
    name: '`AppError` + `isAppError`',
    source: "export { AppError, isAppError } from './src/errors'",
    requires: ['src/errors/index.ts'],
  },
  {
    name: '`createBalanceReader` alone (ky + zod/mini schema)',
    source: "export { createBalanceReader } from './src/balance'",
    requires: ['src/balance/index.ts'],
  },
  {
    name: 'all machines (`scope-connect/machines`, with xstate)',
    source: "export * from './machines/index'",
    requires: ['machines/index.ts'],
  },
  {
    name: '`Client` (connectors, machines, HTTP clients)',
    source: "export { Client } from './src/client'",
    requires: ['src/client.ts'],
  },
  {
    name: '**pure API** (no network: errors, logging, registry, pairing, links, envelope)',
    source: PURE_API_SOURCE,
    requires: ['src/index.ts'],
  },
  {
    name: 'whole package (`src/index.ts`: everything, Client included)',
    source: "export * from './src/index'",
    requires: ['src/index.ts'],
  },
]

const ONE_SCHEMA = `object({ chainId: string(), raw: string(), decimals: number() })`

const REFERENCE_ENTRIES: Entry[] = [
  {
    name: 'one schema + `parse`, `zod/mini`',
    source: `import * as z from 'zod/mini'
export const Schema = z.${ONE_SCHEMA.replace(/(string|number)\(\)/g, 'z.$1()')}
export const parse = (value) => Schema.parse(value)`,
  },
  {
    name: 'one schema + `parse`, classic `zod`',
    source: `import { z } from 'zod'
export const Schema = z.${ONE_SCHEMA.replace(/(string|number)\(\)/g, 'z.$1()')}
export const parse = (value) => Schema.parse(value)`,
  },
  { name: "ky 1.x alone (the HTTP clients' transport)", source: "export { default } from 'ky'" },
]

/** The goal from the foundation issue: the network-free pure API under 8 KB gzip. */
const PURE_API_GOAL_BYTES = 8 * 1024

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

interface Measured {
  name: string
  raw?: number
  gzip?: number
  brotli?: number
  skipped?: string
}

async function measure(entry: Entry): Promise<Measured> {
  const missing = (entry.requires ?? []).filter((path) => !existsSync(join(root, path)))
  if (missing.length > 0) return { name: entry.name, skipped: `missing ${missing.join(', ')}` }
  try {
    const result = await build({
      stdin: { contents: entry.source, resolveDir: root, loader: 'ts', sourcefile: 'entry.ts' },
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      treeShaking: true,
      write: false,
      logLevel: 'silent',
      legalComments: 'none',
    })
    const code = result.outputFiles[0]?.contents ?? new Uint8Array()
    return {
      name: entry.name,
      raw: code.length,
      gzip: gzipSync(code, { level: 9 }).length,
      brotli: brotliCompressSync(code, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
      }).length,
    }
  } catch (error) {
    const text = error instanceof Error ? error.message.split('\n')[0] : String(error)
    return { name: entry.name, skipped: `build failed: ${text}` }
  }
}

function kb(bytes: number | undefined): string {
  return bytes === undefined ? '–' : `${(bytes / 1024).toFixed(2)} KB`
}

function table(rows: Measured[]): string {
  const lines = ['| Entry | Raw (min) | gzip -9 | brotli -11 |', '|---|---:|---:|---:|']
  for (const row of rows) {
    lines.push(
      row.skipped === undefined
        ? `| ${row.name} | ${kb(row.raw)} | ${kb(row.gzip)} | ${kb(row.brotli)} |`
        : `| ${row.name} | skipped: ${row.skipped} | | |`,
    )
  }
  return lines.join('\n')
}

async function main(): Promise<void> {
  const library = await Promise.all(ENTRIES.map(measure))
  const reference = await Promise.all(REFERENCE_ENTRIES.map(measure))
  const pure = library.find((row) => row.name.includes('**pure API**'))
  const goal =
    pure?.gzip === undefined
      ? 'The pure API could not be measured this time.'
      : pure.gzip <= PURE_API_GOAL_BYTES
        ? `The pure API is ${kb(pure.gzip)} gzip: within the goal.`
        : `The pure API is ${kb(pure.gzip)} gzip: **over the goal**.`
  const mini = reference[0]?.gzip
  const classic = reference[1]?.gzip
  const ratio =
    mini !== undefined && classic !== undefined
      ? ` Classic zod is ${(classic / mini).toFixed(1)}× the size of zod/mini for the same schema.`
      : ''

  const markdown = `# Bundle size

Generated by \`npx tsx bench/bundle-size.ts\` (\`npm run bench:size\`); do not edit by hand.

- Date: ${new Date().toISOString().slice(0, 10)}
- Node: ${process.version}
- Bundler: esbuild, \`bundle\`, \`minify\`, \`format: esm\`, \`platform: browser\`, \`target: es2022\`,
  tree shaking on. Each row bundles a virtual entry (\`export { x } from './src/…'\`) resolved from
  the repository root, so it measures what an application pays for importing just that.
- gzip at level 9, brotli at quality 11. 1 KB = 1024 bytes.

**Goal:** the pure API (the parts that need no network: errors, logging switches, registry and
lookups, pairing and universal-link helpers, the signed-message envelope) stays under **8 KB gzip**;
single helpers such as \`buildPairingUri\` should cost a few hundred bytes to a couple of KB.

${goal}

The balance reader's goal was **6 KB gzip**: not reachable while it is built, as required, on ky
with zod validation of every answer. ky alone and one zod/mini schema alone (reference rows below)
already add up to more; the rest is the error mapping (backend error body, field issues,
\`Retry-After\`) and base-URL rules.

## Library entries

${table(library)}

## Reference: zod/mini versus classic zod, and ky

The wire schemas (\`src/wire/\`) use \`zod/mini\` because classic \`zod\` does not tree-shake: one
schema pulls in the whole library.${ratio}

${table(reference)}

The schema is \`${ONE_SCHEMA}\` with a \`parse\` call.

## Adding rows

Append to \`ENTRIES\` at the top of \`bench/bundle-size.ts\` (e.g. \`createBalanceReader\`, each
machine, all machines). Entries whose \`requires\` paths are missing, or that fail to build, show as
skipped with the reason instead of failing the run.
`
  const out = join(root, 'docs', 'bundle-size.md')
  mkdirSync(dirname(out), { recursive: true })
  writeFileSync(out, markdown)
  console.log(table([...library, ...reference]))
  console.log(goal)
  console.log(`written ${out}`)
}

await main()
