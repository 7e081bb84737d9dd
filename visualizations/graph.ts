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

function guardName(transition: AnyTransitionDefinition): string | undefined {
  const guard = transition.guard as unknown
  if (guard === undefined) return undefined
  if (typeof guard === 'string') return guard
  if (typeof guard === 'object' && guard !== null && 'type' in guard) return String(guard.type)
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
