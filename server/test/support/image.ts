import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { cachedFolder, packServerTarball, packTarball, ROOT } from '../../../test/support/packed'

/**
 * server/Dockerfile built on this machine, where Docker does not run: each stage a folder (its
 * WORKDIR), the build context the two packed tarballs (docs/operations.md packs them). A stage with
 * RUN lines (the install stage: `npm install` of the tarballs) is built once per pair of tarballs
 * and shared, read-only: `installStage()` for the installed-package tests, the runtime stage's
 * `COPY --from` for the container test. COPY between stages links files (`cp -al`) where it can.
 */

export interface Stage {
  name: string | undefined
  workdir: string
  env: Record<string, string>
  copies: Array<{ from: string | undefined; sources: string[]; target: string }>
  runs: string[]
  user: string | undefined
  healthcheck: string[] | undefined
  entrypoint: string[]
  cmd: string[]
}

/** The stages of a Dockerfile, one instruction per line (comments and blank lines skipped). */
export function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = []
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (line === '' || line.startsWith('#')) continue
    const [instruction = '', ...rest] = line.split(/\s+/)
    const args = line.slice(instruction.length).trim()
    const stage = stages.at(-1)
    switch (instruction.toUpperCase()) {
      case 'FROM':
        stages.push({
          name: /\bAS\s+(\S+)/i.exec(args)?.[1],
          workdir: '/',
          env: {},
          copies: [],
          runs: [],
          user: undefined,
          healthcheck: undefined,
          entrypoint: [],
          cmd: [],
        })
        break
      case 'WORKDIR':
        if (stage) stage.workdir = args
        break
      case 'ENV': {
        const [key, ...value] = args.split('=')
        if (stage && key) stage.env[key] = value.join('=')
        break
      }
      case 'COPY': {
        const from = /^--from=(\S+)/.exec(args)?.[1]
        const paths = rest.filter((part) => !part.startsWith('--'))
        const target = paths.pop() ?? ''
        stage?.copies.push({ from, sources: paths, target })
        break
      }
      case 'RUN':
        stage?.runs.push(args)
        break
      case 'USER':
        if (stage) stage.user = args
        break
      case 'HEALTHCHECK':
        if (stage) stage.healthcheck = JSON.parse(args.slice(args.indexOf('CMD ') + 4)) as string[]
        break
      case 'ENTRYPOINT':
        if (stage) stage.entrypoint = JSON.parse(args) as string[]
        break
      case 'CMD':
        if (stage) stage.cmd = JSON.parse(args) as string[]
        break
    }
  }
  return stages
}

/** server/Dockerfile's stages. */
export const stages = parseDockerfile(readFileSync(join(ROOT, 'server', 'Dockerfile'), 'utf8'))

/** A folder holding the packed tarballs: the build context. */
function buildContext(tarballs: string[]): string {
  const context = mkdtempSync(join(tmpdir(), 'scope-connect-context-'))
  for (const tarball of tarballs) copyFileSync(tarball, join(context, basename(tarball)))
  return context
}

/** `cp -al`: the same files, hard-linked (a copy where the two folders' filesystems differ). */
export function linkCopy(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true })
  try {
    execFileSync('cp', ['-al', from, to], { stdio: 'ignore' })
  } catch {
    cpSync(from, to, { recursive: true })
  }
}

/**
 * Builds `stage` into `dir`: its COPY lines (from `context` or an earlier stage's folder), then its
 * RUN lines.
 */
function buildStage(
  stage: Stage,
  dir: string,
  context: string,
  stageDirs: ReadonlyMap<string | undefined, string>,
): void {
  for (const copy of stage.copies) {
    const fromDir = copy.from === undefined ? context : stageDirs.get(copy.from)
    if (!fromDir) throw new Error(`COPY --from=${copy.from}: no such stage`)
    const fromWorkdir = stages.find((other) => other.name === copy.from)?.workdir ?? '/'
    for (const source of copy.sources) {
      // From the context: relative paths, globs. From a stage: absolute paths in its WORKDIR.
      const relativeSource =
        copy.from === undefined ? source : source.slice(fromWorkdir.length).replace(/^\//, '')
      if (relativeSource.includes('*')) {
        const pattern = new RegExp(`^${relativeSource.replace(/\./g, '\\.').replace(/\*/g, '.*')}$`)
        for (const name of readdirSync(fromDir).filter((entry) => pattern.test(entry))) {
          copyFileSync(join(fromDir, name), join(dir, copy.target, name))
        }
      } else {
        linkCopy(join(fromDir, relativeSource), join(dir, copy.target))
      }
    }
  }
  for (const command of stage.runs) {
    // The npm cache first, the registry for what it lacks (docker build would use the registry).
    execFileSync('sh', ['-c', command], {
      cwd: dir,
      env: { ...process.env, npm_config_prefer_offline: 'true', npm_config_loglevel: 'error' },
      stdio: ['ignore', 'ignore', 'inherit'],
      timeout: 300_000,
    })
  }
}

/**
 * The folder of `stage` (one with RUN lines) built from the context of `tarballs`, once per stage
 * and pair of tarballs, in the pack cache. Read it; never write to it.
 */
function cachedStage(stage: Stage, tarballs: string[]): string {
  const key = createHash('sha256').update(JSON.stringify({ tarballs, stage })).digest('hex')
  return cachedFolder(`stage-${key.slice(0, 16)}`, (dir) => {
    const context = buildContext(tarballs)
    try {
      buildStage(stage, dir, context, new Map())
    } finally {
      rmSync(context, { recursive: true, force: true })
    }
  })
}

/**
 * The folder of the Dockerfile's install stage (its RUN: `npm install` of both tarballs into an
 * empty project), built once for the current tarballs. Read it; never write to it.
 */
export function installStage(): string {
  const stage = stages.find((candidate) => candidate.runs.length > 0)
  if (!stage) throw new Error('server/Dockerfile: no stage runs anything')
  return cachedStage(stage, [packTarball(), packServerTarball()])
}

/**
 * Every stage of the Dockerfile under `root`, those with RUN lines shared (`cachedStage`: the
 * install stage is the one `installStage()` returns); the runtime stage's folder is the image.
 */
export function buildImage(root: string): { image: string } {
  const tarballs = [packTarball(), packServerTarball()]
  const context = buildContext(tarballs)
  const stageDirs = new Map<string | undefined, string>()
  let image = ''
  try {
    for (const [index, stage] of stages.entries()) {
      let dir: string
      if (stage.runs.length > 0) dir = cachedStage(stage, tarballs)
      else {
        dir = join(root, `stage-${index}`)
        mkdirSync(dir)
        buildStage(stage, dir, context, stageDirs)
      }
      stageDirs.set(stage.name, dir)
      image = dir
    }
  } finally {
    rmSync(context, { recursive: true, force: true })
  }
  return { image }
}
