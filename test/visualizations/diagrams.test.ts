import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { createMachine } from 'xstate'
import {
  aspectRatio,
  exportedMachines,
  generateDiagrams,
  MAX_ASPECT_RATIO,
  machineSvg,
  OUT_DIR,
  toDot,
  toMermaid,
} from '../../visualizations/generate'
import { eventLabel, machineEdges, machineStates, stateDetails } from '../../visualizations/graph'

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

/** Mermaid arrows, without the initial and final pseudo-states. */
function arrows(mermaid: string) {
  return mermaid
    .split('\n')
    .map((line) => /^\s*(\S+) --> (\S+)(?: : (.*))?$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && m[1] !== '[*]' && m[2] !== '[*]')
    .map((m) => ({ from: m[1]!, to: m[2]!, label: m[3] ?? '' }))
}

describe('diagram content', () => {
  it('names every state and draws every transition, grouped by source and target', () => {
    for (const { machine } of exportedMachines()) {
      const mermaid = toMermaid(machine)
      const dot = toDot(machine)
      for (const state of machineStates(machine)) {
        expect(mermaid).toContain(`state "${state.key}" as ${state.path.join('_')}`)
        expect(dot).toContain(`<B>${state.key}</B>`)
      }
      const drawn = arrows(mermaid)
      const pairs = drawn.map((a) => `${a.from}→${a.to}`)
      expect(new Set(pairs).size, 'one arrow per source and target').toBe(pairs.length)
      const id = (node: { path: string[] }) =>
        node.path.length ? node.path.join('_') : 'any_state'
      for (const edge of machineEdges(machine)) {
        const text = `${eventLabel(edge.eventType)}${edge.guard ? ` [` : ''}`
        if (!edge.target) {
          // Targetless transitions are listed in their state (a description line or its note).
          const internal = stateDetails(edge.source, machineEdges(machine)).internal
          expect(internal.some((line) => line.startsWith(eventLabel(edge.eventType)))).toBe(true)
          for (const line of internal) expect(mermaid).toContain(line)
          continue
        }
        const into = drawn.filter((a) => a.to === id(edge.target!) && a.label.includes(text))
        const reached = into.some(
          (a) =>
            a.from === id(edge.source) ||
            a.from === `${id(edge.source)}_any` ||
            (a.from.startsWith('join_') && pairs.includes(`${id(edge.source)}→${a.from}`)),
        )
        expect(reached, `${edge.key} is drawn`).toBe(true)
        if (edge.guard) expect(into.some((a) => a.label.includes(edge.guard!))).toBe(true)
      }
    }
  })

  it('groups the poll outcomes: one edge per final state, shared by both fetching states', () => {
    const mermaid = generated.get('session-polling.mmd') ?? ''
    const drawn = arrows(mermaid)
    const intoExpired = drawn.filter((a) => a.to === 'expired')
    expect(intoExpired).toHaveLength(1)
    expect(intoExpired[0]!.label).toBe(
      'done fetchResult [isExpiredStatus | isPastDeadline | isAttemptCapReached]<br/>' +
        'error fetchResult [isSessionGone | isPastDeadline | isAttemptCapReached]',
    )
    const junction = intoExpired[0]!.from
    expect(mermaid).toContain(`state ${junction} <<choice>>`)
    expect(drawn.filter((a) => a.to === junction).map((a) => a.from)).toEqual([
      'waiting_fetching',
      'connected_fetching',
    ])
    expect(mermaid).toContain(
      'waiting_sleeping --> waiting_fetching : POLL_NOW<br/>after pollDelay',
    )
    expect(mermaid).toContain(
      'waiting_fetching --> waiting_sleeping : done fetchResult [else]<br/>error fetchResult [isRateLimited | isTransient]',
    )
    expect(mermaid).toContain('any_state --> cancelled : CANCEL')
    const svg = generated.get('session-polling.svg') ?? ''
    expect(svg).toMatch(/^<\?xml|^<svg/)
    // The junction sits right of both poll loops: its edges do not cross the other loop.
    const xs = (title: string, tag: string) => {
      const shape = new RegExp(
        `<title>${title}</title>[\\s\\S]*?<${tag}[^>]*\\s(?:points|d)="([^"]+)"`,
      )
      const coordinates = shape.exec(svg)?.[1] ?? ''
      return [...coordinates.matchAll(/(-?[\d.]+),-?[\d.]+/g)].map((m) => Number(m[1]))
    }
    const junctionLeft = Math.min(...xs(junction, 'polygon'))
    for (const loop of ['cluster_waiting', 'cluster_connected'])
      expect(junctionLeft).toBeGreaterThan(Math.max(...xs(loop, 'path')))
  })

  it('shows invoked actors, tags, entry actions and internal transitions in the states', () => {
    const polling = generated.get('session-polling.mmd') ?? ''
    expect(polling).toContain('waiting_fetching : invoke fetchResult')
    expect(polling).toMatch(/note right of waiting\n.*\n\s+#resumable #polling\n\s+end note/)
    expect(generated.get('universal-link.mmd')).toContain('openingWallet : invoke openWallet')
    expect(generated.get('relay-connection.mmd')).toContain('offline : entry / dropSocket')
    expect(generated.get('connect.mmd')).toContain('connected : WALLET.CHAIN_CHANGED / assignChain')
    const svg = generated.get('session-polling.svg') ?? ''
    for (const text of ['invoke fetchResult', '#resumable #polling', 'invoke createSession'])
      expect(svg).toContain(text)
    expect(generated.get('relay-connection.svg')).toContain('entry / dropSocket')
  })

  it("every diagram shows each state's invoked actors, tags, entry/exit actions and internal transitions", () => {
    const htmlText = (text: string) =>
      text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    for (const { name, machine } of exportedMachines()) {
      const edges = machineEdges(machine)
      const mermaid = generated.get(`${name}.mmd`) ?? ''
      const svg = generated.get(`${name}.svg`) ?? ''
      let shown = 0
      for (const state of [machine.root, ...machineStates(machine)]) {
        const details = stateDetails(state, edges)
        for (const line of [
          ...details.actions,
          ...details.invokes,
          ...details.tags,
          ...details.internal,
        ]) {
          expect(mermaid, `${name}: ${line}`).toContain(line.replace(/[:;]/g, ','))
          expect(svg, `${name}: ${line}`).toContain(htmlText(line))
          shown++
        }
      }
      expect(shown, `${name} shows what its states do`).toBeGreaterThan(0)
    }
  })

  it('names parametrised guards with their parameters and draws region transitions from "(any … state)"', () => {
    const pairing = generated.get('pairing.mmd') ?? ''
    expect(pairing).toContain(
      'active_flow_awaitingApproval --> rejected : error awaitApproval [failedWith(USER_REJECTED)]',
    )
    expect(pairing).toContain(
      'active_flow_awaitingApproval --> expired : error awaitApproval [failedWith(SESSION_EXPIRED)]<br/>after proposalExpiry',
    )
    // Parameters returned by a params function from what it closes over (not from the event).
    const link = generated.get('universal-link.mmd') ?? ''
    expect(link).toContain('--> rejected : done poll [pollFailedWith(USER_REJECTED)]')
    expect(link).toContain('--> expired : done poll [pollFailedWith(SESSION_EXPIRED)]')
    // RELAY.STATUS is handled by the connectivity region, whichever state it is in.
    expect(pairing).toContain('state "(any connectivity state)" as active_connectivity_any')
    expect(pairing).toContain(
      'active_connectivity_any --> active_connectivity_online : RELAY.STATUS [relayStatusIs(online)]',
    )
    expect(pairing).not.toMatch(/^\s*active_connectivity --> /m)
    // The parallel regions are entered together: side by side, no initial arrow picks one.
    expect(pairing).toMatch(/end note\n\s+}\n\s+--\n\s+state "connectivity"/)
    expect(pairing).not.toContain('[*] --> active_flow\n')
    const dot = toDot(exportedMachines().find((m) => m.name === 'pairing')!.machine)
    expect(dot).toContain('"active_connectivity_any" [label=<<B>(any connectivity state)</B>>')
    expect(dot).not.toContain('"__init_active"')
    expect(generated.get('pairing.svg')).toContain('(any connectivity state)')
  })

  it('turns a long chain of states top-down so the drawing fits a page', async () => {
    const states = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [`step${i}`, { on: { NEXT: `step${i + 1}` } }]),
    )
    const chain = createMachine({
      id: 'chain',
      initial: 'step0',
      states: { ...states, step12: {} },
    })
    expect(aspectRatio(await machineSvg(chain))).toBeLessThan(1)
    const small = createMachine({
      id: 'small',
      initial: 'a',
      states: { a: { on: { GO: 'b' } }, b: {} },
    })
    expect(aspectRatio(await machineSvg(small))).toBeGreaterThan(1)
    expect(aspectRatio(await machineSvg(small))).toBeLessThanOrEqual(MAX_ASPECT_RATIO)
  })
})
