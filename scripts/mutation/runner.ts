/**
 * Runs mutation jobs in child processes (run-mutant.ts), a few at a time. Each child leads its own
 * process group, so a job that hangs (a mutant can loop forever) is ended with its Vitest workers
 * by its group id; Ctrl-C / SIGTERM end every running job and remove the temporary files. The work
 * tree is never written: mutants reach Vitest through a plugin, job files live in a temp folder.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { JobResult, MutantJob } from './run-mutant'

const RUN_MUTANT = fileURLToPath(new URL('./run-mutant.ts', import.meta.url))
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href

export type JobInput = Omit<MutantJob, 'resultPath'>

export type JobOutcome =
  | { kind: 'done'; result: JobResult }
  | { kind: 'timeout'; durationMs: number }
  | { kind: 'crashed'; message: string; durationMs: number }

export interface PoolOptions {
  concurrency: number
  /** Wall-clock limit per job; the job's process group is killed after it. */
  timeoutMs: (index: number) => number
  /** The child's pid, which is also its process group id. */
  onStart?: (index: number, pid: number) => void
  onDone?: (index: number, outcome: JobOutcome) => void
}

/** Runs every job; outcomes in job order. */
export async function runJobs(jobs: JobInput[], options: PoolOptions): Promise<JobOutcome[]> {
  const dir = mkdtempSync(join(tmpdir(), 'scope-connect-mutate-'))
  const running = new Set<ChildProcess>()
  /** Ends the child and the Vitest workers it started (its process group). */
  const killGroup = (child: ChildProcess) => {
    if (child.pid === undefined) return
    try {
      process.kill(-child.pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
  const onSignal = (signal: NodeJS.Signals) => {
    for (const child of running) killGroup(child)
    rmSync(dir, { recursive: true, force: true })
    process.exit(signal === 'SIGINT' ? 130 : 143)
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)

  const runOne = (job: JobInput, index: number) =>
    new Promise<JobOutcome>((resolve) => {
      const jobPath = join(dir, `job-${index}.json`)
      const resultPath = join(dir, `result-${index}.json`)
      writeFileSync(jobPath, JSON.stringify({ ...job, resultPath } satisfies MutantJob))
      const started = Date.now()
      const child = spawn(process.execPath, ['--import', TSX_LOADER, RUN_MUTANT, jobPath], {
        cwd: job.root,
        detached: true,
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      })
      running.add(child)
      if (child.pid !== undefined) options.onStart?.(index, child.pid)
      let stderr = ''
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString()).slice(-4000)
      })
      let timedOut = false
      const timer = setTimeout(() => {
        timedOut = true
        killGroup(child)
      }, options.timeoutMs(index))
      child.on('close', () => {
        clearTimeout(timer)
        running.delete(child)
        const durationMs = Date.now() - started
        if (timedOut) return resolve({ kind: 'timeout', durationMs })
        try {
          resolve({
            kind: 'done',
            result: JSON.parse(readFileSync(resultPath, 'utf8')) as JobResult,
          })
        } catch {
          killGroup(child) // workers a crashed child may have left behind
          resolve({
            kind: 'crashed',
            message: stderr.trim().split('\n').slice(-5).join('\n'),
            durationMs,
          })
        }
      })
    })

  const outcomes: JobOutcome[] = new Array(jobs.length)
  let next = 0
  const worker = async () => {
    while (next < jobs.length) {
      const index = next++
      outcomes[index] = await runOne(jobs[index]!, index)
      options.onDone?.(index, outcomes[index]!)
    }
  }
  try {
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker))
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    rmSync(dir, { recursive: true, force: true })
  }
  return outcomes
}
