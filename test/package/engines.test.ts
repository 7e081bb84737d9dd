import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import semver from 'semver'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../support/packed'

// `engines.node` must be true to the dependency tree: `npm install` on our oldest Node gives no
// EBADENGINE, and every Node our range admits runs the library's own dependencies. The range is
// `^20.19.0 || >=22.12.0` because the CommonJS build `require()`s ESM-only packages (ky, @noble/*),
// which Node allows from 20.19 and 22.12 on (`require(esm)` unflagged).

interface Manifest {
  name: string
  version: string
  engines?: { node?: unknown }
  dependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
}

const own = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest & {
  engines: { node: string }
  workspaces: string[]
}
const ours = own.engines.node
const oldest = semver.minVersion(ours)?.version ?? ''

function read(dir: string): Manifest | undefined {
  const file = join(dir, 'package.json')
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Manifest) : undefined
}

/** Every installed package: `node_modules` of the root and of each workspace, nested ones too. */
function installed(modules: string): Array<{ dir: string; manifest: Manifest }> {
  if (!existsSync(modules)) return []
  return readdirSync(modules).flatMap((name) => {
    if (name.startsWith('.')) return []
    if (name.startsWith('@')) {
      return readdirSync(join(modules, name)).flatMap((child) => visit(join(modules, name, child)))
    }
    return visit(join(modules, name))
  })
}

function visit(dir: string): Array<{ dir: string; manifest: Manifest }> {
  // A link is a workspace of this repository (the root itself among them, for changesets): its
  // own node_modules come from the workspaces below, and following it would loop.
  if (lstatSync(dir).isSymbolicLink()) return []
  const manifest = read(dir)
  if (!manifest) return []
  return [{ dir, manifest }, ...installed(join(dir, 'node_modules'))]
}

const tree = [
  ...installed(join(ROOT, 'node_modules')),
  ...own.workspaces
    .flatMap((pattern) =>
      pattern.endsWith('/*')
        ? readdirSync(join(ROOT, pattern.slice(0, -2))).map((name) =>
            join(ROOT, pattern.slice(0, -2), name, 'node_modules'),
          )
        : [join(ROOT, pattern, 'node_modules')],
    )
    .flatMap(installed),
]

function nodeRange(manifest: Manifest): string | undefined {
  const range = manifest.engines?.node
  return typeof range === 'string' ? range : undefined
}

/** The library's runtime closure: its dependencies and theirs (as installed, hoisted or nested). */
function runtimeClosure(): Manifest[] {
  const found = new Map<string, Manifest>()
  const queue: Array<{ name: string; from: string }> = Object.keys(own.dependencies ?? {}).map(
    (name) => ({ name, from: ROOT }),
  )
  while (queue.length > 0) {
    const { name, from } = queue.shift() as { name: string; from: string }
    // Node's lookup: the nearest node_modules/<name> walking up from the dependent.
    let dir = from
    let manifest: Manifest | undefined
    let at = ''
    for (;;) {
      at = join(dir, 'node_modules', name)
      manifest = read(at)
      if (manifest || dir === ROOT) break
      dir = join(dir, '..')
    }
    if (!manifest || found.has(at)) continue
    found.set(at, manifest)
    for (const dep of Object.keys(manifest.dependencies ?? {})) queue.push({ name: dep, from: at })
  }
  return [...found.values()]
}

describe('engines.node is true to the dependency tree', () => {
  it('the tree walk sees the installed packages', () => {
    expect(tree.length).toBeGreaterThan(200)
    expect(tree.map(({ manifest }) => manifest.name)).toContain('fastify')
    expect(oldest).toBe('20.19.0')
  })

  it(`every installed package accepts our oldest Node (${oldest}) and this one: no EBADENGINE`, () => {
    const refusing = tree
      .filter(({ manifest }) => {
        const range = nodeRange(manifest)
        return (
          range !== undefined &&
          !(semver.satisfies(oldest, range) && semver.satisfies(process.version, range))
        )
      })
      .map(
        ({ manifest }) => `${manifest.name}@${manifest.version} wants node ${nodeRange(manifest)}`,
      )
    expect(refusing).toEqual([])
  })

  it(`the library's runtime dependencies accept every Node in ${ours}`, () => {
    const closure = runtimeClosure()
    expect(closure.map((manifest) => manifest.name)).toEqual(
      expect.arrayContaining(['ky', 'xstate']),
    )
    const narrower = closure
      .filter((manifest) => {
        const range = nodeRange(manifest)
        return range !== undefined && !semver.subset(ours, range)
      })
      .map((manifest) => `${manifest.name}@${manifest.version} wants node ${nodeRange(manifest)}`)
    expect(narrower).toEqual([])
  })

  it('would catch a package that wants a newer Node (cookie 2 wants >=22)', () => {
    expect(semver.satisfies(oldest, '>=22')).toBe(false)
    expect(semver.subset(ours, '>=20.19')).toBe(true)
    expect(semver.subset(ours, '>=22')).toBe(false)
  })
})
