// The layering rule (issue 15): a module of src/ is a service — machines use it — or a face — it
// uses machines (the Client, React, connectors' and the poll facades) — never both, directly or
// through what it imports; and a folder holds one kind only, so the tree says which is which.
// Entry barrels (`index.ts`) are the package's doors and hold either. Facades under machines/
// (`x.facade.ts`, and the pairing facade's parts `pairing.{setup,client,flow}.ts`) are faces too:
// they build actors. Type-only imports are erased from the code and do not count.
const MACHINE_FACADE = /\.(facade|setup|client|flow)\.ts$/

import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path)
    return path.endsWith('.ts') ? [path] : []
  })
}

/** The relative imports of `file` (static, re-exports and dynamic), as repository paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
  const specs = [
    ...text.matchAll(/(?:import|export)(?!\s+type\s)[^'";]*?from\s+['"](\.[^'"]+)['"]/g),
    ...text.matchAll(/import\(\s*['"](\.[^'"]+)['"]\s*\)/g),
  ].map((m) => m[1] as string)
  return specs.flatMap((spec) => {
    const target = resolve(ROOT, dirname(file), spec)
    for (const candidate of [`${target}.ts`, join(target, 'index.ts')]) {
      try {
        if (statSync(candidate).isFile()) return [relative(ROOT, candidate)]
      } catch {}
    }
    return []
  })
}

const files = [...sources('src'), ...sources('machines')]
const graph = new Map(files.map((file) => [file, importsOf(file)]))
const isBarrel = (file: string) => file.endsWith('/index.ts')
const inSrc = (file: string) => file.startsWith('src/') && !isBarrel(file)

/** Every module reachable from `start` through imports (itself excluded). */
function reachable(start: string): Set<string> {
  const seen = new Set<string>()
  const stack = [...(graph.get(start) ?? [])]
  while (stack.length > 0) {
    const next = stack.pop() as string
    if (seen.has(next)) continue
    seen.add(next)
    stack.push(...(graph.get(next) ?? []))
  }
  return seen
}

const faces = files.filter(
  (f) => inSrc(f) && (graph.get(f) ?? []).some((d) => d.startsWith('machines/')),
)
const services = new Set(
  files
    .filter((f) => f.startsWith('machines/') && !MACHINE_FACADE.test(f) && !isBarrel(f))
    .flatMap((f) => [...reachable(f)])
    .filter(inSrc),
)

describe('faces and services', () => {
  it('the rule is live: there are faces and services', () => {
    expect(faces).toContain('src/client/client.ts')
    expect(faces).toContain('src/session/face/poll.ts')
    expect(services).toContain('src/universal-link/persisted-state.ts')
    expect(services).toContain('src/errors/app-error.ts')
  })

  it('no module is both a face and a service (machines never reach a face)', () => {
    expect(faces.filter((face) => services.has(face))).toEqual([])
  })

  it('no folder holds both a face and a service', () => {
    const kinds = new Map<string, Set<string>>()
    for (const face of faces)
      kinds.set(dirname(face), new Set([...(kinds.get(dirname(face)) ?? []), 'face']))
    for (const service of services)
      kinds.set(dirname(service), new Set([...(kinds.get(dirname(service)) ?? []), 'service']))
    const mixed = [...kinds].filter(([, k]) => k.size > 1).map(([dir]) => dir)
    expect(mixed).toEqual([])
  })
})
