/**
 * What relay pairing costs in a page: esbuild bundles (minified ESM, browser, tree shaking) of the
 * pairing entry points, gzip level 9. What `Client.pair()` loads on first use (it is not in the
 * Client entry) is in the lazy-chunk table of docs/bundle-size.md, measured from the tarball.
 *
 *   npx tsx bench/pairing-size.ts
 *
 * Writes the "## Pairing bundle" section of docs/benchmarks.md. A quick measurement: the bundle
 * bench (`bench/bundle-size.ts`) will take these rows over.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

async function gzipSize(source: string): Promise<{ raw: number; gzip: number }> {
  const result = await build({
    stdin: { contents: source, resolveDir: root, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    treeShaking: true,
    write: false,
    external: ['@metamask/sdk'],
    logLevel: 'silent',
  })
  const code = result.outputFiles[0]?.contents ?? new Uint8Array()
  return { raw: code.length, gzip: gzipSync(code, { level: 9 }).length }
}

const ROWS: Array<[string, string]> = [
  ['`scope-connect/wallet` (the wallet entry alone)', "export * from './src/wallet'"],
  ['`scope-connect/qr` (`pairingQrSvg`, lean-qr)', "export * from './src/qr'"],
  [
    '`startPairing` alone (machine, relay client, crypto, xstate, zod/mini)',
    "export { startPairing } from './machines/pairing/pairing.facade'",
  ],
  ['`createRelayClient` alone', "export { createRelayClient } from './src/relay/client'"],
  [
    '`signTransferAuthorization` (EIP-3009, without the pairing flow)',
    "export { signTransferAuthorization } from './src/eip3009'",
  ],
]

async function main() {
  const lines: string[] = []
  for (const [name, source] of ROWS) {
    const size = await gzipSize(source)
    lines.push(`| ${name} | ${(size.raw / 1024).toFixed(1)} | ${(size.gzip / 1024).toFixed(1)} |`)
  }
  console.log(lines.join('\n'))
  const section = `## Pairing bundle

\`npx tsx bench/pairing-size.ts\` — esbuild, minified ESM for the browser, tree shaken, gzip -9
(KiB). \`Client.pair()\` loads the pairing machine and the relay client on first use: their
chunk beside the \`Client\` entry is in [bundle-size.md](bundle-size.md) (from the packed tarball).

| Entry | Minified | Gzip |
|---|---:|---:|
${lines.join('\n')}
`
  const path = join(root, 'docs', 'benchmarks.md')
  const current = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmarks\n'
  const pattern = /## Pairing bundle\n[\s\S]*?(?=\n## |$)/
  const updated = pattern.test(current)
    ? current.replace(pattern, section.trimEnd() + '\n')
    : `${current.trimEnd()}\n\n${section}`
  writeFileSync(path, updated.endsWith('\n') ? updated : `${updated}\n`)
  console.log('wrote docs/benchmarks.md (## Pairing bundle)')
}

await main()
