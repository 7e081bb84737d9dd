import { describe, expect, it } from 'vitest'
import { slowFilesFirst } from '../support/sequencer'

const file = (project: string, path: string) => ({ project, moduleId: `/repo/${path}` })

describe('the suite runs slow files first', () => {
  it('moves each project’s slow files to its front; the rest, and the projects, keep their order', () => {
    // Vitest's order on a fresh clone: each project's files, the largest first.
    const bySize = [
      file('isolated', 'test/react.test.ts'),
      file('isolated', 'test/ui/toast.test.ts'),
      file('shared', 'test/client.flows.test.ts'),
      file('shared', 'server/test/cli.test.ts'),
      file('shared', 'test/faults/client.faults.property.test.ts'),
      file('shared', 'test/browser/demo.test.ts'),
      file('shared', 'test/package/fresh-clone.test.ts'),
    ]
    expect(slowFilesFirst(bySize).map((f) => `${f.project} ${f.moduleId.slice(6)}`)).toEqual([
      'isolated test/react.test.ts',
      'isolated test/ui/toast.test.ts',
      'shared test/faults/client.faults.property.test.ts',
      'shared test/browser/demo.test.ts',
      'shared test/package/fresh-clone.test.ts',
      'shared test/client.flows.test.ts',
      'shared server/test/cli.test.ts',
    ])
  })

  it('names the files that start processes: packages, browsers, clusters, mutants', () => {
    const slow = [
      'server/test/package/installed.test.ts',
      'examples/react-dapp/test/ui.browser.test.ts',
      'server/test/scale/cluster-outages.test.ts',
      'test/tooling/mutation.test.ts',
      'test/client-walletconnect-faults.test.ts',
      'test/docs/doc-blocks.test.ts',
    ]
    const files = [
      file('shared', 'test/machines/pairing.machine.test.ts'),
      ...slow.map((path) => file('shared', path)),
    ]
    expect(slowFilesFirst(files).at(-1)?.moduleId).toBe(
      '/repo/test/machines/pairing.machine.test.ts',
    )
  })
})
