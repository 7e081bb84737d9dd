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

/**
 * Vitest's order (each project's files, failed first, then the longest by the last run's timings)
 * with the slow files first. On a fresh clone there are no timings and Vitest orders by file size,
 * which put the short fault-property and fresh-clone files (~50 s each) last: one worker then ran
 * them alone while the other had nothing left.
 */
export class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const rank = (spec: TestSpecification) =>
      SLOW_FILES.some((slow) => slow.test(spec.moduleId)) ? 0 : 1
    const project = (spec: TestSpecification) => spec.project.name
    return sorted
      .map((spec, index) => ({ spec, index }))
      .sort(
        (a, b) =>
          project(a.spec).localeCompare(project(b.spec)) ||
          rank(a.spec) - rank(b.spec) ||
          a.index - b.index,
      )
      .map(({ spec }) => spec)
  }
}
