import { cpSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Consumer, createConsumer, packTarball, tarballFiles } from '../support/packed'

// `"sideEffects": false` lets a bundler skip a module nobody uses, but only a module without
// top-level side effects is really free: every top-level factory call (zod schemas, the registry's
// frozen tables and maps, loggers) must be marked `/* @__PURE__ */` or be a literal. This bundles
// `import './module.js'` for every module of the packed `dist/`, with the package's `sideEffects`
// flag removed and every import of the module kept external, and expects nothing to remain but
// those imports: the module's own top-level code must vanish.

/** Modules the `actors` branch annotates (machines/** is its area); remove once it has landed. */
const PENDING_ACTORS = /^dist\/machines\//

let consumer: Consumer
let modules: string[]

beforeAll(() => {
  const tarball = packTarball()
  consumer = createConsumer(tarball)
  // A copy without `"sideEffects": false`, so the bundler judges the code itself.
  const copy = join(consumer.dir, 'plain')
  cpSync(join(consumer.packageDir, 'dist'), join(copy, 'dist'), { recursive: true })
  writeFileSync(join(copy, 'package.json'), '{ "type": "module" }\n')
  modules = tarballFiles(tarball).filter((file) => /^dist\/.*\.js$/.test(file))
}, 180_000)

afterAll(() => consumer?.remove())

/**
 * A module of nothing but `export … from` / `import … from` statements has no code of its own.
 * (Bundled on its own with external imports, esbuild would add re-export helpers to it.)
 */
function isBarrel(module: string): boolean {
  const code = readFileSync(join(consumer.dir, 'plain', module), 'utf8')
    .replace(/\/\/.*$/gm, '')
    .replace(/\/\*[\s\S]*?\*\//g, '')
  return code
    .split(';')
    .map((statement) => statement.trim())
    .every(
      (statement) =>
        statement === '' || /^(export|import)\b[\s\S]*\bfrom\s*"[^"]*"$/.test(statement),
    )
}

async function leftover(module: string): Promise<string> {
  if (isBarrel(module)) return ''
  const result = await build({
    stdin: { contents: `import './${module}'`, resolveDir: join(consumer.dir, 'plain') },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'only-this-module',
        setup(plugin) {
          plugin.onResolve({ filter: /.*/ }, (args) =>
            args.importer === '<stdin>' ? undefined : { path: args.path, external: true },
          )
        },
      },
    ],
  })
  const code = result.outputFiles[0]?.text ?? ''
  // What remains besides the (external) import statements is the module's own top-level code.
  return code.replace(/import\s*(?:[^;"]*?from\s*)?"[^"]*";?/g, '').trim()
}

describe('the packed dist/ has no module with top-level side effects', () => {
  it('covers every module of the package', () => {
    expect(modules.length).toBeGreaterThan(50)
    expect(modules).toContain('dist/index.js')
    expect(modules).toContain('dist/wire/index.js')
  })

  it('an unused import of any module leaves no code behind', async () => {
    const offenders: string[] = []
    for (const module of modules.filter((file) => !PENDING_ACTORS.test(file))) {
      const code = await leftover(module)
      if (code !== '') offenders.push(`${module}: ${code.slice(0, 160)}`)
    }
    expect(offenders).toEqual([])
  })

  it('the check catches a module that has one', async () => {
    writeFileSync(
      join(consumer.dir, 'plain', 'dist', 'impure.js'),
      'export const table = Object.freeze({ a: 1 })\n',
    )
    expect(await leftover('dist/impure.js')).toMatch(/Object\.freeze/)
  })
})
