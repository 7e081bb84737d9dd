/**
 * Writes visualizations/<machine>.mmd (Mermaid stateDiagram-v2) and <machine>.svg (Graphviz DOT
 * rendered offline by @viz-js/viz) for every machine exported by `machines/index.ts`.
 *
 * Each state shows its entry/exit actions, invoked actors, tags and targetless transitions; the
 * transitions from one state to one target are one edge listing their events and guards; edges
 * several states share (the poll loop's shared transition lists) leave from one junction.
 *
 *   npx tsx visualizations/generate.ts          # write
 *   npx tsx visualizations/generate.ts --check  # exit 1 when a committed diagram is stale
 *
 * Output is deterministic: definition order, no timestamps, no random ids.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AnyStateMachine, AnyStateNode } from 'xstate'
import * as machines from '../machines/index'
import { DIAGRAM_DESCRIPTIONS } from './descriptions'
import {
  type EdgeGroup,
  edgeGroups,
  type GraphEdge,
  machineEdges,
  stateDetails,
  withJunctions,
} from './graph'

export const OUT_DIR = dirname(fileURLToPath(import.meta.url))

/** Every exported machine, by kebab-case file name (`sessionPollingMachine` → `session-polling`). */
export function exportedMachines(): Array<{ name: string; machine: AnyStateMachine }> {
  return Object.entries(machines)
    .filter(([key, value]) => key.endsWith('Machine') && isMachine(value))
    .map(([key, value]) => ({
      name: key.replace(/Machine$/, '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`),
      machine: value as AnyStateMachine,
    }))
    .sort((a, b) => a.name.localeCompare(b.name))
}

function isMachine(value: unknown): value is AnyStateMachine {
  return typeof value === 'object' && value !== null && 'root' in value && 'provide' in value
}

/** A state's description: its own, or the one its diagram keeps for it (see descriptions.ts). */
const describe = (node: AnyStateNode): string | undefined =>
  node.description ?? DIAGRAM_DESCRIPTIONS[node.id]
const children = (node: AnyStateNode): AnyStateNode[] => Object.values(node.states ?? {})
const pathId = (node: AnyStateNode) => node.path.join('_') || 'root'
const initialChild = (node: AnyStateNode): AnyStateNode | undefined => {
  const target = node.initial?.target?.[0]
  return target ?? children(node)[0]
}
/**
 * A compound state's transition into one of its own states (the root's are drawn from "(any
 * state)" already).
 */
const isInside = (target: AnyStateNode, source: AnyStateNode) =>
  source.path.length > 0 &&
  target.path.length > source.path.length &&
  source.path.every((key, i) => target.path[i] === key)
/** Where a compound state's transitions into its own states are drawn from: `(any <key> state)`. */
const anyOf = (node: AnyStateNode) => `${pathId(node)}_any`
const hasInnerEdges = (node: AnyStateNode, groups: EdgeGroup[]) =>
  groups.some((g) => g.source === node && isInside(g.target, node))
/** The atomic node an edge to/from `node` is drawn at (compound states use their initial child). */
const anchor = (node: AnyStateNode): AnyStateNode => {
  let current = node
  while (children(current).length > 0) {
    const next = initialChild(current)
    if (!next) break
    current = next
  }
  return current
}

// ---- Mermaid -------------------------------------------------------------------------------------

/** Mermaid reads `:` and `;` as syntax in notes and descriptions. */
const mermaidText = (text: string) => text.replace(/[:;]/g, ',')

/** Detail lines shown in a state: entry/exit actions, invoked actors, tags, internal transitions. */
function detailLines(node: AnyStateNode, edges: GraphEdge[]): string[] {
  const details = stateDetails(node, edges)
  return [...details.actions, ...details.invokes, ...details.tags, ...details.internal]
}

export function toMermaid(machine: AnyStateMachine): string {
  const root = machine.root
  const edges = machineEdges(machine)
  const groups = edgeGroups(machine)
  const lines = ['stateDiagram-v2']
  const rootDetails = detailLines(root, edges)
  if (groups.some((g) => g.source === root) || rootDetails.length > 0) {
    lines.push('  state "(any state)" as any_state')
    for (const detail of rootDetails) lines.push(`  any_state : ${mermaidText(detail)}`)
  }
  const declare = (node: AnyStateNode, indent: string) => {
    for (const [index, child] of children(node).entries()) {
      // The regions of a parallel state, side by side.
      if (node.type === 'parallel' && index > 0) lines.push(`${indent}--`)
      const id = pathId(child)
      const details = detailLines(child, edges)
      const description = describe(child)
      lines.push(`${indent}state "${child.key}" as ${id}`)
      if (children(child).length > 0) {
        lines.push(`${indent}state ${id} {`)
        const initial = child.type === 'parallel' ? undefined : initialChild(child)
        if (initial) lines.push(`${indent}  [*] --> ${pathId(initial)}`)
        declare(child, `${indent}  `)
        if (hasInnerEdges(child, groups))
          lines.push(`${indent}  state "(any ${child.key} state)" as ${anyOf(child)}`)
        lines.push(`${indent}}`)
        // A composite state has no description lines in Mermaid: its details go in its note.
        const note = [...(description ? [description] : []), ...details]
        if (note.length > 0) {
          lines.push(`${indent}note right of ${id}`)
          for (const line of note) lines.push(`${indent}  ${mermaidText(line)}`)
          lines.push(`${indent}end note`)
        }
        continue
      }
      for (const detail of details) lines.push(`${indent}${id} : ${mermaidText(detail)}`)
      if (child.type === 'final') lines.push(`${indent}${id} --> [*]`)
      if (description) lines.push(`${indent}note right of ${id} : ${mermaidText(description)}`)
    }
  }
  const initial = initialChild(root)
  if (initial) lines.push(`  [*] --> ${pathId(initial)}`)
  declare(root, '  ')
  const { direct, junctions } = withJunctions(groups)
  const from = (node: AnyStateNode) => (node === root ? 'any_state' : pathId(node))
  for (const junction of junctions) lines.push(`  state ${junction.id} <<choice>>`)
  for (const group of direct) {
    const source = isInside(group.target, group.source) ? anyOf(group.source) : from(group.source)
    lines.push(`  ${source} --> ${pathId(group.target)} : ${group.lines.join('<br/>')}`)
  }
  for (const junction of junctions) {
    for (const source of junction.sources) lines.push(`  ${from(source)} --> ${junction.id}`)
    for (const group of junction.outgoing)
      lines.push(`  ${junction.id} --> ${pathId(group.target)} : ${group.lines.join('<br/>')}`)
  }
  return `${lines.join('\n')}\n`
}

// ---- DOT -----------------------------------------------------------------------------------------

const q = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
const html = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** An HTML-like label: the state's name in bold, its details small underneath. */
function stateLabel(name: string, details: string[]): string {
  const small = details.map((d) => `<BR/><FONT POINT-SIZE="9" COLOR="#4a5568">${html(d)}</FONT>`)
  return `<<B>${html(name)}</B>${small.join('')}>`
}

export type RankDir = 'LR' | 'TB'

export function toDot(machine: AnyStateMachine, rankdir: RankDir = 'LR'): string {
  const root = machine.root
  const edges = machineEdges(machine)
  const groups = edgeGroups(machine)
  const lines = [
    `digraph ${q(root.id)} {`,
    `  graph [rankdir=${rankdir}, compound=true, fontname="Helvetica", fontsize=12, nodesep=0.5, ranksep=0.7, pad=0.25];`,
    '  node [shape=box, style="rounded,filled", fillcolor="#f5f7fb", color="#4a5568", fontname="Helvetica", fontsize=11, margin="0.2,0.06"];',
    '  edge [color="#4a5568", fontname="Helvetica", fontsize=9];',
    `  label=${q(root.id)}; labelloc=t;`,
  ]
  const declare = (node: AnyStateNode, indent: string) => {
    // Every region of a parallel state is entered at once: no initial arrow picks one.
    const initial = node.type === 'parallel' ? undefined : initialChild(node)
    if (initial) {
      lines.push(`${indent}${q(`__init_${pathId(node)}`)} [shape=point, width=0.12, label=""];`)
      // Into a compound initial state, the arrow ends at its border (its own initial arrow goes on).
      const into = children(initial).length > 0 ? ` [lhead=${q(`cluster_${pathId(initial)}`)}]` : ''
      lines.push(`${indent}${q(`__init_${pathId(node)}`)} -> ${q(pathId(anchor(initial)))}${into};`)
    }
    for (const child of children(node)) {
      const label = stateLabel(child.key, detailLines(child, edges))
      // The description shows on hover in the SVG.
      const description = describe(child)
      const tooltip = description ? `tooltip=${q(description)}` : undefined
      if (children(child).length > 0) {
        lines.push(`${indent}subgraph ${q(`cluster_${pathId(child)}`)} {`)
        lines.push(
          `${indent}  label=${label}; style="rounded"; color="#718096";${tooltip ? ` ${tooltip};` : ''}`,
        )
        declare(child, `${indent}  `)
        if (hasInnerEdges(child, groups))
          lines.push(
            `${indent}  ${q(anyOf(child))} [label=${stateLabel(`(any ${child.key} state)`, [])}, shape=plaintext, style=""];`,
          )
        lines.push(`${indent}}`)
      } else {
        const attrs = [`label=${label}`]
        if (child.type === 'final') attrs.push('peripheries=2', 'fillcolor="#e6fffa"')
        if (tooltip) attrs.push(tooltip)
        lines.push(`${indent}${q(pathId(child))} [${attrs.join(', ')}];`)
      }
    }
  }
  declare(root, '  ')
  const rootDetails = detailLines(root, edges)
  if (groups.some((g) => g.source === root) || rootDetails.length > 0) {
    lines.push(
      `  "__any" [label=${stateLabel('(any state)', rootDetails)}, shape=plaintext, style=""];`,
    )
  }
  const end = (node: AnyStateNode) => (node === root ? '__any' : pathId(anchor(node)))
  const cluster = (node: AnyStateNode) =>
    node !== root && children(node).length > 0 ? `cluster_${pathId(node)}` : undefined
  const edge = (source: AnyStateNode | string, target: AnyStateNode | string, extra: string[]) => {
    if (typeof source !== 'string' && typeof target !== 'string' && isInside(target, source))
      source = anyOf(source)
    const attrs = [...extra]
    const tail = typeof source === 'string' ? undefined : cluster(source)
    const head = typeof target === 'string' || target === source ? undefined : cluster(target)
    if (tail) attrs.push(`ltail=${q(tail)}`)
    if (head) attrs.push(`lhead=${q(head)}`)
    const at = (n: AnyStateNode | string) => (typeof n === 'string' ? n : end(n))
    lines.push(
      `  ${q(at(source))} -> ${q(at(target))}${attrs.length ? ` [${attrs.join(', ')}]` : ''};`,
    )
  }
  const { direct, junctions } = withJunctions(groups)
  for (const group of direct)
    edge(group.source, group.target, [`label=${q(group.lines.join('\n'))}`])
  for (const junction of junctions) {
    lines.push(
      `  ${q(junction.id)} [shape=diamond, width=0.18, height=0.18, label="", style=filled, fillcolor="#4a5568"];`,
    )
    // Two ranks on: the junction lands past every state it joins, so no joining edge crosses
    // another of them (the poll loops' outcomes would cut through the other loop).
    for (const source of junction.sources) edge(source, junction.id, ['arrowhead=none', 'minlen=2'])
    for (const group of junction.outgoing)
      edge(junction.id, group.target, [`label=${q(group.lines.join('\n'))}`])
  }
  lines.push('}')
  return `${lines.join('\n')}\n`
}

// ---- files ---------------------------------------------------------------------------------------

let vizPromise:
  | Promise<{ renderString(dot: string, options: { format: 'svg' }): string }>
  | undefined

async function renderSvg(dot: string): Promise<string> {
  vizPromise ??= import('@viz-js/viz').then((m) => m.instance())
  const viz = await vizPromise
  return viz.renderString(dot, { format: 'svg' })
}

/** The drawing's width / height, from the SVG's root element. */
export function aspectRatio(svg: string): number {
  const size = /<svg[^>]*\swidth="([\d.]+)pt"[^>]*\sheight="([\d.]+)pt"/.exec(svg)
  return size ? Number(size[1]) / Number(size[2]) : 1
}

/** Left to right reads best (labels run along the edges); a long chain of states turns top-down. */
export const MAX_ASPECT_RATIO = 3.5

/** The machine's SVG: left to right, or top-down when left to right is too wide for a page. */
export async function machineSvg(machine: AnyStateMachine): Promise<string> {
  const wide = await renderSvg(toDot(machine, 'LR'))
  return aspectRatio(wide) <= MAX_ASPECT_RATIO ? wide : renderSvg(toDot(machine, 'TB'))
}

/** Every diagram file (name → content) the machines generate right now. */
export async function generateDiagrams(): Promise<Map<string, string>> {
  const files = new Map<string, string>()
  for (const { name, machine } of exportedMachines()) {
    files.set(`${name}.mmd`, toMermaid(machine))
    files.set(`${name}.svg`, await machineSvg(machine))
  }
  return files
}

async function main() {
  const check = process.argv.includes('--check')
  const files = await generateDiagrams()
  const stale: string[] = []
  for (const [file, content] of files) {
    const path = join(OUT_DIR, file)
    let current: string | undefined
    try {
      current = readFileSync(path, 'utf8')
    } catch {
      current = undefined
    }
    if (current === content) continue
    if (check) stale.push(file)
    else {
      writeFileSync(path, content)
      console.log(`wrote visualizations/${file}`)
    }
  }
  if (check && stale.length > 0) {
    console.error(`Stale diagrams (run npx tsx visualizations/generate.ts): ${stale.join(', ')}`)
    process.exit(1)
  }
  if (check) console.log(`${files.size} diagrams up to date`)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await main()
}
