/**
 * Writes visualizations/<machine>.mmd (Mermaid stateDiagram-v2) and <machine>.svg (Graphviz DOT
 * rendered offline by @viz-js/viz) for every machine exported by `machines/index.ts`.
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
import { eventLabel, machineEdges } from './graph'

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

const children = (node: AnyStateNode): AnyStateNode[] => Object.values(node.states ?? {})
const pathId = (node: AnyStateNode) => node.path.join('_') || 'root'
const initialChild = (node: AnyStateNode): AnyStateNode | undefined => {
  const target = node.initial?.target?.[0]
  return target ?? children(node)[0]
}
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

function edgeText(eventType: string, guard: string | undefined): string {
  return guard ? `${eventLabel(eventType)} [${guard}]` : eventLabel(eventType)
}

// ---- Mermaid -------------------------------------------------------------------------------------

export function toMermaid(machine: AnyStateMachine): string {
  const lines = ['stateDiagram-v2']
  const declare = (node: AnyStateNode, indent: string) => {
    for (const child of children(node)) {
      const id = pathId(child)
      lines.push(`${indent}state "${child.key}" as ${id}`)
      if (children(child).length > 0) {
        lines.push(`${indent}state ${id} {`)
        const initial = initialChild(child)
        if (initial) lines.push(`${indent}  [*] --> ${pathId(initial)}`)
        declare(child, `${indent}  `)
        lines.push(`${indent}}`)
      }
      if (child.type === 'final') lines.push(`${indent}${id} --> [*]`)
      if (child.description)
        lines.push(`${indent}note right of ${id} : ${child.description.replace(/[:;]/g, ',')}`)
    }
  }
  const root = machine.root
  const initial = initialChild(root)
  if (initial) lines.push(`  [*] --> ${pathId(initial)}`)
  declare(root, '  ')
  for (const edge of machineEdges(machine)) {
    const source = edge.source === root ? '[*]' : pathId(edge.source)
    const target = edge.target ? pathId(edge.target) : source
    if (edge.source === root) {
      lines.push(`  %% from any state`)
    }
    lines.push(
      `  ${source === '[*]' ? 'any_state' : source} --> ${target} : ${edgeText(edge.eventType, edge.guard)}`,
    )
  }
  if (machineEdges(machine).some((e) => e.source === root)) {
    lines.splice(1, 0, '  state "(any state)" as any_state')
  }
  return `${lines.join('\n')}\n`
}

// ---- DOT -----------------------------------------------------------------------------------------

const q = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`

export function toDot(machine: AnyStateMachine): string {
  const root = machine.root
  const lines = [
    `digraph ${q(root.id)} {`,
    '  graph [rankdir=LR, compound=true, fontname="Helvetica", fontsize=12, nodesep=0.4, ranksep=0.6];',
    '  node [shape=box, style="rounded,filled", fillcolor="#f5f7fb", color="#4a5568", fontname="Helvetica", fontsize=11];',
    '  edge [color="#4a5568", fontname="Helvetica", fontsize=9];',
    `  label=${q(root.id)}; labelloc=t;`,
  ]
  const declare = (node: AnyStateNode, indent: string) => {
    const initial = initialChild(node)
    if (initial) {
      lines.push(`${indent}${q(`__init_${pathId(node)}`)} [shape=point, width=0.12, label=""];`)
      lines.push(`${indent}${q(`__init_${pathId(node)}`)} -> ${q(pathId(anchor(initial)))};`)
    }
    for (const child of children(node)) {
      if (children(child).length > 0) {
        lines.push(`${indent}subgraph ${q(`cluster_${pathId(child)}`)} {`)
        lines.push(`${indent}  label=${q(child.key)}; style="rounded"; color="#718096";`)
        declare(child, `${indent}  `)
        lines.push(`${indent}}`)
      } else {
        const attrs = [`label=${q(child.key)}`]
        if (child.type === 'final') attrs.push('peripheries=2', 'fillcolor="#e6fffa"')
        lines.push(`${indent}${q(pathId(child))} [${attrs.join(', ')}];`)
      }
    }
  }
  declare(root, '  ')
  const edges = machineEdges(machine)
  if (edges.some((e) => e.source === root)) {
    lines.push(`  "__any" [label="(any state)", shape=plaintext, style=""];`)
  }
  for (const edge of edges) {
    const from = edge.source === root ? '__any' : pathId(anchor(edge.source))
    const to = edge.target ? pathId(anchor(edge.target)) : from
    const attrs = [`label=${q(edgeText(edge.eventType, edge.guard))}`]
    if (edge.source !== root && children(edge.source).length > 0) {
      attrs.push(`ltail=${q(`cluster_${pathId(edge.source)}`)}`)
    }
    if (edge.target && children(edge.target).length > 0 && edge.target !== edge.source) {
      attrs.push(`lhead=${q(`cluster_${pathId(edge.target)}`)}`)
    }
    lines.push(`  ${q(from)} -> ${q(to)} [${attrs.join(', ')}];`)
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

/** Every diagram file (name → content) the machines generate right now. */
export async function generateDiagrams(): Promise<Map<string, string>> {
  const files = new Map<string, string>()
  for (const { name, machine } of exportedMachines()) {
    files.set(`${name}.mmd`, toMermaid(machine))
    files.set(`${name}.svg`, await renderSvg(toDot(machine)))
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
