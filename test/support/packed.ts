import { execFileSync, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The package as users get it: `npm pack` of the repository (its `prepack` runs the build), and a
 * consumer project with the tarball unpacked in `node_modules/scope-connect`.
 *
 * Packing is cached by a hash of everything that goes into the tarball, and serialised with a lock
 * directory, so test files running in parallel build once.
 */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const CACHE = join(ROOT, 'node_modules', '.cache', 'scope-connect-pack')
const LOCK = join(CACHE, 'lock')
const LOCK_STALE_MS = 5 * 60_000

/**
 * What the tarball is made from; a change to any of these packs again. `dist` itself is one: a
 * tarball packed from an earlier build (`--ignore-scripts`, below) is not reused after a rebuild.
 */
const INPUTS = [
  'package.json',
  'tsconfig.json',
  'scripts/build.ts',
  'README.md',
  'LICENSE',
  'CONTRIBUTING.md',
  'CHANGELOG.md',
  'visualizations',
  'src',
  'machines',
  'docs',
  'dist',
]

function hashInputs(): string {
  const hash = createHash('sha256')
  const visit = (path: string) => {
    const full = join(ROOT, path)
    if (!existsSync(full)) return
    if (statSync(full).isDirectory()) {
      for (const name of readdirSync(full).sort()) visit(join(path, name))
    } else {
      hash.update(path).update('\0').update(readFileSync(full)).update('\0')
    }
  }
  for (const input of INPUTS) visit(input)
  return hash.digest('hex').slice(0, 16)
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

function withLock<T>(work: () => T): T {
  mkdirSync(CACHE, { recursive: true })
  for (;;) {
    try {
      mkdirSync(LOCK)
      break
    } catch {
      // Another worker packs; a lock left by a killed run goes stale.
      if (existsSync(LOCK) && Date.now() - statSync(LOCK).mtimeMs > LOCK_STALE_MS) {
        rmSync(LOCK, { recursive: true, force: true })
      }
      sleep(200)
    }
  }
  try {
    return work()
  } finally {
    rmSync(LOCK, { recursive: true, force: true })
  }
}

/**
 * `npm pack` into a folder. With `built`, the build the package's `prepack` would run is already
 * in place (`scripts/test.sh` builds before Vitest), so it is packed as it is (`--ignore-scripts`)
 * rather than built a second time (issue 30: the library's and the server's build took 18 s and
 * 16 s again inside the first packaging test).
 */
function packCommand(built: boolean): string[] {
  return ['pack', '--silent', ...(built ? ['--ignore-scripts'] : []), '--pack-destination']
}

/** Newest modification time of the files under `paths` (repository-relative); 0 for none. */
function newestMtime(paths: string[]): number {
  let newest = 0
  for (const path of paths) walk(join(ROOT, path), (time) => (newest = Math.max(newest, time)))
  return newest
}

/** Oldest modification time of the files under `path`; Infinity for none. */
function oldestMtime(path: string): number {
  let oldest = Number.POSITIVE_INFINITY
  walk(join(ROOT, path), (time) => (oldest = Math.min(oldest, time)))
  return oldest
}

function walk(full: string, visit: (mtimeMs: number) => void): void {
  if (!existsSync(full)) return
  const stat = statSync(full)
  if (stat.isDirectory()) {
    for (const name of readdirSync(full)) walk(join(full, name), visit)
  } else {
    visit(stat.mtimeMs)
  }
}

/** Every file a manifest's `exports`, `main`, `module`, `types` and `bin` name, package-relative. */
function manifestTargets(manifest: Record<string, unknown>): string[] {
  const targets: string[] = []
  const collect = (value: unknown): void => {
    if (typeof value === 'string') targets.push(value)
    else if (value && typeof value === 'object') Object.values(value).forEach(collect)
  }
  for (const key of ['exports', 'main', 'module', 'types', 'bin']) collect(manifest[key])
  return targets.filter((target) => target !== './package.json' && !target.includes('*'))
}

/**
 * Whether `out` (the build's output folder, which the build empties first) was written after the
 * last change to any of `inputs`, and holds every file the manifest in `packageDir` names.
 */
function builtAfter(packageDir: string, out: string, inputs: string[]): boolean {
  const manifest = JSON.parse(
    readFileSync(join(ROOT, packageDir, 'package.json'), 'utf8'),
  ) as Record<string, unknown>
  const complete = manifestTargets(manifest).every((target) =>
    existsSync(join(ROOT, packageDir, target)),
  )
  return complete && newestMtime(inputs) < oldestMtime(out)
}

/** What `npm run build` (`scripts/build.ts`) reads for `dist/`. */
const LIBRARY_BUILD_INPUTS = [
  'package.json',
  'tsconfig.json',
  'scripts/build.ts',
  'src',
  'machines',
]

/** Whether `dist/` is the build of the current sources (`npm run build` ran since the last edit). */
export function libraryBuilt(): boolean {
  return builtAfter('.', 'dist', LIBRARY_BUILD_INPUTS)
}

/** Whether `server/dist/` is the build of the current server sources and of the current `dist/`. */
export function serverBuilt(): boolean {
  return (
    libraryBuilt() &&
    builtAfter('server', 'server/dist', [
      'scripts/build.ts',
      'scripts/build-server.ts',
      'server/package.json',
      'server/src',
      'dist',
    ])
  )
}

/**
 * Removes tarballs of earlier inputs, once they are an hour old: a file in another worker of the
 * same run may still read the tarball it was handed before the inputs changed (a stale `dist/`
 * rebuilt by the first pack).
 */
function pruneCache(): void {
  for (const old of readdirSync(CACHE)) {
    const path = join(CACHE, old)
    if (old !== 'lock' && Date.now() - statSync(path).mtimeMs > 60 * 60_000) {
      rmSync(path, { recursive: true, force: true })
    }
  }
}

/** Path of `scope-connect-<version>.tgz` as `npm pack` makes it (cached per input hash). */
export function packTarball(): string {
  return withLock(() => {
    const dir = join(CACHE, hashInputs())
    if (existsSync(dir)) {
      const cached = readdirSync(dir).find((name) => name.endsWith('.tgz'))
      if (cached) return join(dir, cached)
    }
    pruneCache()
    mkdirSync(dir, { recursive: true })
    const out = execFileSync('npm', [...packCommand(libraryBuilt()), dir], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const name = out.trim().split('\n').at(-1) ?? ''
    const tarball = join(dir, name)
    if (!name.endsWith('.tgz') || !existsSync(tarball)) throw new Error(`npm pack said: ${out}`)
    return tarball
  })
}

/** The file list of a tarball, without the leading `package/`. */
export function tarballFiles(tarball: string): string[] {
  return execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.replace(/^package\//, ''))
}

export interface Consumer {
  dir: string
  /** `node_modules/scope-connect` of the consumer. */
  packageDir: string
  remove(): void
}

/**
 * A fresh project in a temp directory with the tarball unpacked as `node_modules/scope-connect`.
 * Its dependencies (and `extra` packages, e.g. `typescript`) are linked from the repository's
 * `node_modules`, at the locked versions: no network, and a dependency missing from the packed
 * `package.json` fails to resolve, as it would after `npm install`.
 */
export function createConsumer(tarball: string, extra: string[] = []): Consumer {
  const dir = mkdtempSync(join(tmpdir(), 'scope-connect-consumer-'))
  writeFileSync(join(dir, 'package.json'), '{ "name": "consumer", "private": true }\n')
  const modules = join(dir, 'node_modules')
  const packageDir = join(modules, 'scope-connect')
  mkdirSync(packageDir, { recursive: true })
  execFileSync('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components', '1'])
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>
  }
  for (const name of [...Object.keys(manifest.dependencies ?? {}), ...extra]) {
    const source = join(ROOT, 'node_modules', name)
    if (!existsSync(source)) throw new Error(`${name} is not installed in the repository`)
    const target = join(modules, name)
    mkdirSync(dirname(target), { recursive: true })
    if (!existsSync(target)) symlinkSync(source, target, 'dir')
  }
  return { dir, packageDir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/** What the server's tarball is made from (besides the library, whose build its types read). */
const SERVER_INPUTS = [
  'scripts/build-server.ts',
  'server/dist',
  'server/package.json',
  'server/README.md',
  'server/Dockerfile',
  'server/compose.yaml',
  'server/projects.sample.json',
  'server/bin',
  'server/src',
]

/**
 * `npm pack` of `@scope-connect/server` (its `prepack` builds `server/dist/`), after the library's
 * (`packTarball`), whose built declarations the server's refer to. Cached like `packTarball`.
 */
export function packServerTarball(): string {
  const library = packTarball()
  return withLock(() => {
    const hash = createHash('sha256').update(library)
    for (const input of SERVER_INPUTS) hashPath(hash, input)
    const dir = join(CACHE, `server-${hash.digest('hex').slice(0, 16)}`)
    const cached = existsSync(dir) ? readdirSync(dir).find((name) => name.endsWith('.tgz')) : null
    if (cached) return join(dir, cached)
    pruneCache()
    mkdirSync(dir, { recursive: true })
    const out = execFileSync('npm', [...packCommand(serverBuilt()), dir], {
      cwd: join(ROOT, 'server'),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const name = out.trim().split('\n').at(-1) ?? ''
    if (!name.endsWith('.tgz') || !existsSync(join(dir, name))) {
      throw new Error(`npm pack said: ${out}`)
    }
    return join(dir, name)
  })
}

function hashPath(hash: ReturnType<typeof createHash>, path: string): void {
  const full = join(ROOT, path)
  if (!existsSync(full)) return
  if (statSync(full).isDirectory()) {
    for (const name of readdirSync(full).sort()) hashPath(hash, join(path, name))
  } else {
    hash.update(path).update('\0').update(readFileSync(full)).update('\0')
  }
}

/**
 * A folder of the pack cache that `make` fills once (under the lock: files running in parallel make
 * it once), then shared: callers read it and never write to it. `key` names it and must change
 * with anything `make` reads.
 */
export function cachedFolder(key: string, make: (dir: string) => void): string {
  return withLock(() => {
    const dir = join(CACHE, key)
    const complete = `${dir}.complete`
    if (existsSync(dir) && existsSync(complete)) return dir
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir, { recursive: true })
    make(dir)
    writeFileSync(complete, '')
    return dir
  })
}

/**
 * Removes a temporary folder in a detached `rm -rf` that outlives the test process: an installed
 * tree (hundreds of packages; a fresh clone's ~600 MB took 154 s at load 19) is not worth waiting
 * for in `afterAll`. The folder is renamed first, so nothing reads it half-removed.
 */
export function removeLater(dir: string): void {
  if (!existsSync(dir)) return
  const doomed = `${dir}.removing`
  try {
    renameSync(dir, doomed)
  } catch {
    rmSync(dir, { recursive: true, force: true })
    return
  }
  const child = spawn('rm', ['-rf', doomed], { detached: true, stdio: 'ignore' })
  child.on('error', () => rmSync(doomed, { recursive: true, force: true }))
  child.unref()
}
