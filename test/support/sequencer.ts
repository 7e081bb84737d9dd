import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * Files that start processes or a browser (npm installs and packs, Chromium, `npm run demo`, a Redis
 * Cluster, Vitest itself) or run thousands of property cases: tens of seconds each.
 */
const SLOW_FILES = [
  /\/test\/package\//,
  /\/test\/browser\//,
  /\.browser\.test\.ts$/,
  /\/test\/scale\//,
  /\/test\/faults\/.*\.property\.test\.ts$/,
  /\/test\/tooling\/mutation\.test\.ts$/,
  /\/test\/client-walletconnect/,
  /\/test\/docs\/doc-blocks\.test\.ts$/,
]

interface File {
  moduleId: string
  project: string
}

/** `files` with each project's slow files moved to its front; otherwise in the order given. */
export function slowFilesFirst<T extends File>(files: readonly T[]): T[] {
  const rank = (file: File) => (SLOW_FILES.some((slow) => slow.test(file.moduleId)) ? 0 : 1)
  return files
    .map((file, index) => ({ file, index }))
    .sort(
      (a, b) =>
        a.file.project.localeCompare(b.file.project) ||
        rank(a.file) - rank(b.file) ||
        a.index - b.index,
    )
    .map(({ file }) => file)
}

/**
 * Vitest's order (each project's files, failed first, then the longest by the last run's timings)
 * with the slow files first. On a fresh clone there are no timings and Vitest orders by file size,
 * which put the short fault-property and fresh-clone files (~50 s each) last: one worker then ran
 * them alone while the other had nothing left.
 */
export class SlowFilesFirst extends BaseSequencer {
  override async sort(specs: TestSpecification[]): Promise<TestSpecification[]> {
    const files = (await super.sort(specs)).map((spec) => ({
      spec,
      moduleId: spec.moduleId,
      project: spec.project.name,
    }))
    return slowFilesFirst(files).map(({ spec }) => spec)
  }
}
