import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  exportedMachines,
  generateDiagrams,
  OUT_DIR,
  toDot,
  toMermaid,
} from '../../visualizations/generate'
import { machineEdges, machineStates } from '../../visualizations/graph'

let generated: Map<string, string>
beforeAll(async () => {
  generated = await generateDiagrams()
})

describe('committed diagrams', () => {
  it('cover every exported machine (.mmd and .svg each)', () => {
    const names = exportedMachines().map((m) => m.name)
    expect(names).toEqual(expect.arrayContaining(['connect', 'session-polling', 'sign']))
    expect([...generated.keys()].sort()).toEqual(
      names.flatMap((n) => [`${n}.mmd`, `${n}.svg`]).sort(),
    )
  })

  it('match what the machines generate (run `npx tsx visualizations/generate.ts` when this fails)', () => {
    for (const [file, content] of generated) {
      let committed: string | undefined
      try {
        committed = readFileSync(join(OUT_DIR, file), 'utf8')
      } catch {
        committed = undefined
      }
      expect(committed, `visualizations/${file} is stale or missing`).toBe(content)
    }
  })

  it('are deterministic', async () => {
    const again = await generateDiagrams()
    expect([...again.entries()]).toEqual([...generated.entries()])
  })
})

describe('diagram content', () => {
  it('names every state and every transition of each machine', () => {
    for (const { machine } of exportedMachines()) {
      const mermaid = toMermaid(machine)
      const dot = toDot(machine)
      for (const state of machineStates(machine)) {
        expect(mermaid).toContain(`state "${state.key}" as ${state.path.join('_')}`)
        expect(dot).toContain(`label="${state.key}"`)
      }
      const arrows = mermaid.split('\n').filter((l) => l.includes(' --> ') && !l.includes('[*]'))
      expect(arrows).toHaveLength(machineEdges(machine).length)
    }
  })

  it('draws the polling loop with its dynamic delay', () => {
    const mermaid = generated.get('session-polling.mmd') ?? ''
    expect(mermaid).toContain('waiting_sleeping --> waiting_fetching : after pollDelay')
    expect(mermaid).toContain(
      'waiting_fetching --> waiting_sleeping : error fetchResult [isRateLimited]',
    )
    expect(mermaid).toContain('any_state --> cancelled : CANCEL')
    expect(generated.get('session-polling.svg')).toMatch(/^<\?xml|^<svg/)
  })
})
