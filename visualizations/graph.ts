import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate'
import { type DirectedGraphNode, getStateNodes, toDirectedGraph } from 'xstate/graph'

/** One transition of a machine, flattened (one entry per target). */
export interface GraphEdge {
  /** Stable key: `source|event|index|target`. */
  key: string
  source: AnyStateNode
  /** `undefined` for a targetless (internal, actions-only) transition. */
  target: AnyStateNode | undefined
  eventType: string
  guard: string | undefined
  transition: AnyTransitionDefinition
}

/**
 * The parameters a guard is given whatever the event: written as values, or returned by a params
 * function from what it closes over (`({ event }) => ({ output: event.output, code })` gives
 * `code`); what depends on the event is left out.
 */
function staticParams(params: unknown): unknown {
  if (typeof params !== 'function') return params
  try {
    return params({ context: {}, event: {} })
  } catch {
    return undefined
  }
}

/** `isRejected`, or with its parameters, `failedWith(USER_REJECTED)`: one guard, several outcomes. */
function guardName(transition: AnyTransitionDefinition): string | undefined {
  const guard = transition.guard as unknown
  if (guard === undefined) return undefined
  if (typeof guard === 'string') return guard
  if (typeof guard === 'object' && guard !== null && 'type' in guard) {
    const params = staticParams('params' in guard ? guard.params : undefined)
    const values =
      typeof params === 'object' && params !== null
        ? Object.values(params).filter((v) => ['string', 'number', 'boolean'].includes(typeof v))
        : []
    return values.length ? `${String(guard.type)}(${values.join(', ')})` : String(guard.type)
  }
  return 'guard'
}

/**
 * Every state node of the machine, root excluded, in definition order.
 */
export function machineStates(machine: AnyStateMachine): AnyStateNode[] {
  return getStateNodes(machine.root)
}

/**
 * Every transition of the machine: the edges of `toDirectedGraph` plus the eventless (`always`)
 * transitions, which `toDirectedGraph` leaves out.
 */
export function machineEdges(machine: AnyStateMachine): GraphEdge[] {
  const edges: GraphEdge[] = []
  const visit = (node: DirectedGraphNode) => {
    const counts = new Map<string, number>()
    const push = (transition: AnyTransitionDefinition, eventType: string) => {
      const index = counts.get(eventType) ?? 0
      counts.set(eventType, index + 1)
      const targets: (AnyStateNode | undefined)[] = transition.target?.length
        ? [...transition.target]
        : [undefined]
      for (const target of targets) {
        edges.push({
          key: `${node.stateNode.id}|${eventType}|${index}|${target?.id ?? '-'}`,
          source: node.stateNode,
          target,
          eventType,
          guard: guardName(transition),
          transition,
        })
      }
    }
    const seen = new Set<AnyTransitionDefinition>()
    for (const edge of node.edges) {
      if (seen.has(edge.transition)) continue
      seen.add(edge.transition)
      push(edge.transition, edge.transition.eventType)
    }
    for (const transition of node.stateNode.always ?? []) push(transition, 'always')
    for (const child of node.children) visit(child)
  }
  visit(toDirectedGraph(machine))
  return edges
}

/** A short label: `done fetchResult`, `error createSession`, `after pollDelay`, `CANCEL`. */
export function eventLabel(eventType: string): string {
  const done = /^xstate\.done\.actor\.(.+)$/.exec(eventType)
  if (done) return `done ${done[1]}`
  const error = /^xstate\.error\.actor\.(.+)$/.exec(eventType)
  if (error) return `error ${error[1]}`
  const after = /^xstate\.after\.([^.]+)\./.exec(eventType)
  if (after) return `after ${after[1]}`
  const doneState = /^xstate\.done\.state\.(.+)$/.exec(eventType)
  if (doneState) return 'done'
  return eventType
}

// ---- what a diagram draws ------------------------------------------------------------------------

/** The name of an action, guard or actor reference as written (`storeError`, `inline`). */
function referenceName(reference: unknown): string {
  if (typeof reference === 'string') return reference
  if (typeof reference === 'object' && reference !== null && 'type' in reference)
    return String(reference.type)
  return 'inline'
}

const toList = <T>(value: T | readonly T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? [...value] : [value as T]

/** What a state shows inside its box, one line each. */
export interface StateDetails {
  /** `entry / openWalletToConnect`, `exit / …`. */
  actions: string[]
  /** `invoke fetchResult`, or `invoke awaitWallet (as wait)` when the id differs from the source. */
  invokes: string[]
  /** `#resumable #polling`. */
  tags: string[]
  /** Transitions that stay in the state: `WALLET.CHAIN_CHANGED / assignChain`. */
  internal: string[]
}

/**
 * Entry and exit actions as configured (XState adds `after` timers to `entry`; those are drawn as
 * edges, not listed), invoked actors, tags, and the state's targetless transitions.
 */
export function stateDetails(node: AnyStateNode, edges: GraphEdge[]): StateDetails {
  const config = node.config as { entry?: unknown; exit?: unknown }
  const actions = [
    ...toList(config.entry).map((a) => `entry / ${referenceName(a)}`),
    ...toList(config.exit).map((a) => `exit / ${referenceName(a)}`),
  ]
  const invokes = node.invoke.map(({ src, id }) => {
    const source = typeof src === 'string' && !src.startsWith('xstate.invoke.') ? src : 'inline'
    return source === id ? `invoke ${source}` : `invoke ${source} (as ${id})`
  })
  const tags = node.tags.length ? [node.tags.map((t) => `#${t}`).join(' ')] : []
  const internal = edges
    .filter((e) => e.source === node && e.target === undefined)
    .map((e) => {
      const names = e.transition.actions.map(referenceName)
      const label = `${eventLabel(e.eventType)}${guardText(e, edges)}`
      return names.length ? `${label} / ${names.join(', ')}` : label
    })
  return { actions, invokes, tags, internal }
}

/** ` [guard]`, ` [else]` for the unguarded fallback after guarded transitions, or nothing. */
function guardText(edge: GraphEdge, edges: GraphEdge[]): string {
  if (edge.guard) return ` [${edge.guard}]`
  const position = edges.indexOf(edge)
  const guardedBefore = edges.some(
    (e, i) => i < position && e.source === edge.source && e.eventType === edge.eventType && e.guard,
  )
  return guardedBefore ? ' [else]' : ''
}

/** Every transition from one state to one target, drawn as one edge. */
export interface EdgeGroup {
  source: AnyStateNode
  target: AnyStateNode
  /** One line per event, its guards in evaluation order: `done fetchResult [isExpiredStatus | isPastDeadline]`. */
  lines: string[]
  edges: GraphEdge[]
}

/**
 * The machine's transitions with a target, grouped by (source, target): the guarded branches of
 * one outcome (and the shared transition lists) become one edge with the guards listed.
 */
export function edgeGroups(machine: AnyStateMachine): EdgeGroup[] {
  const edges = machineEdges(machine)
  const groups = new Map<string, EdgeGroup>()
  for (const edge of edges) {
    if (!edge.target) continue
    const key = `${edge.source.id}→${edge.target.id}`
    let group = groups.get(key)
    if (!group) {
      group = { source: edge.source, target: edge.target, lines: [], edges: [] }
      groups.set(key, group)
    }
    group.edges.push(edge)
  }
  for (const group of groups.values()) {
    const byEvent = new Map<string, string[]>()
    for (const edge of group.edges) {
      const guards = byEvent.get(edge.eventType) ?? []
      guards.push(guardText(edge, edges).slice(2, -1))
      byEvent.set(edge.eventType, guards)
    }
    group.lines = [...byEvent].map(([event, guards]) => {
      const named = guards.filter(Boolean)
      return named.length ? `${eventLabel(event)} [${named.join(' | ')}]` : eventLabel(event)
    })
  }
  return [...groups.values()]
}

/** Edges that several states share (same target, same label), drawn once from a junction. */
export interface Junction {
  /** `join_1`, `join_2`, … in definition order. */
  id: string
  sources: AnyStateNode[]
  /** The shared edges, one per target (their `source` is the first of `sources`). */
  outgoing: EdgeGroup[]
}

/**
 * Splits the edge groups into those drawn directly and junctions: when two or more states share
 * two or more edges (same targets, same labels), as the poll loop's states do with their shared
 * transition lists, the states join at one junction and each shared edge is drawn once from it.
 * A single shared edge stays one edge per state: a junction would not make it clearer.
 */
export function withJunctions(groups: EdgeGroup[]): { direct: EdgeGroup[]; junctions: Junction[] } {
  const signature = (g: EdgeGroup) => `${g.target.id}\n${g.lines.join('\n')}`
  const same = new Map<string, EdgeGroup[]>()
  for (const group of groups)
    same.set(signature(group), [...(same.get(signature(group)) ?? []), group])
  // Shared edges, bucketed by the exact set of states that share them.
  const buckets = new Map<string, { sources: AnyStateNode[]; shared: EdgeGroup[][] }>()
  for (const list of same.values()) {
    if (list.length < 2) continue
    const sources = list.map((g) => g.source)
    const key = sources.map((s) => s.id).join('\n')
    const bucket = buckets.get(key) ?? { sources, shared: [] }
    bucket.shared.push(list)
    buckets.set(key, bucket)
  }
  const joined = new Set<EdgeGroup>()
  const junctions: Junction[] = []
  for (const { sources, shared } of buckets.values()) {
    if (shared.length < 2) continue
    junctions.push({
      id: `join_${junctions.length + 1}`,
      sources,
      outgoing: shared.map((l) => l[0]!),
    })
    for (const list of shared) for (const group of list) joined.add(group)
  }
  return { direct: groups.filter((g) => !joined.has(g)), junctions }
}
