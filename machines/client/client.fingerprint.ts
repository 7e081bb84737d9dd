import type { AnyStateMachine, AnyStateNode } from 'xstate'
import { AppError } from '../../src/errors/app-error'
import { requireMachine } from '../shared/argument-shapes'

/** FNV-1a, 32 bits, as 8 hex digits (not a secret: a change detector). */
function fnv1a(text: string, seed: number): string {
  let hash = seed >>> 0
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash.toString(16).padStart(8, '0')
}

function describeNode(
  node: AnyStateNode,
  machine: AnyStateMachine,
  seen: Set<AnyStateMachine>,
): string[] {
  const lines = [
    `${node.id}:${node.type}:[${[...node.tags].sort().join(',')}]:{${node.ownEvents
      .filter((event) => !event.startsWith('xstate.'))
      .sort()
      .join(',')}}:<${Object.keys(node.config.after ?? {})
      .sort()
      .join(',')}>`,
  ]
  for (const invoke of node.invoke) {
    const src = typeof invoke.src === 'string' ? invoke.src : '(inline)'
    lines.push(`  invoke ${invoke.id}=${src}${invoke.systemId ? `@${invoke.systemId}` : ''}`)
    const logic =
      typeof invoke.src === 'string' ? machine.implementations.actors[invoke.src] : invoke.src
    if (isMachine(logic) && !seen.has(logic)) {
      seen.add(logic)
      lines.push(...describeMachine(logic, seen).map((line) => `    ${line}`))
    }
  }
  for (const child of Object.values(node.states)) lines.push(...describeNode(child, machine, seen))
  return lines
}

function isMachine(logic: unknown): logic is AnyStateMachine {
  return (
    typeof logic === 'object' && logic !== null && 'root' in logic && 'implementations' in logic
  )
}

/** The keys of the machine's context (its factory run on an empty input; nothing is started). */
export function contextKeys(machine: AnyStateMachine): string {
  const context: unknown = machine.config.context
  try {
    const value =
      typeof context === 'function'
        ? context({ input: {}, self: undefined, spawn: () => undefined })
        : context
    return Object.keys(value ?? {})
      .sort()
      .join(',')
  } catch {
    return '(unknown)'
  }
}

function describeMachine(machine: AnyStateMachine, seen: Set<AnyStateMachine>): string[] {
  return [`context ${contextKeys(machine)}`, ...describeNode(machine.root, machine, seen)]
}

/**
 * What the fingerprint covers: the context's keys, then one line per state node: its id, type, tags, own event types and
 * delays, and each invoke's id, actor source and system id — recursively for invoked machines
 * (the provided implementation is followed). Exported for tests and for writing migrations.
 * @throws `INVALID_CONFIG` when `machine` is not a state machine.
 */
export function describeMachineDefinition(machine: AnyStateMachine): string {
  requireMachine(machine, 'describeMachineDefinition: machine')
  try {
    return describeMachine(machine, new Set([machine])).join('\n')
  } catch (error) {
    throw new AppError(
      'INVALID_CONFIG',
      'describeMachineDefinition: `machine` is not a state machine.',
      { cause: error },
    )
  }
}

/**
 * A hash of a machine's definition (see `describeMachineDefinition`), for tooling that tells two
 * charts apart. Stored records no longer carry it: they name their record schema (`client.link@1`),
 * which unrelated chart changes leave as it is. Renaming a state, an invoke id or an actor source,
 * adding or removing an event or a tag changes it; changing an action's code does not.
 * @throws `INVALID_CONFIG` when `machine` is not a state machine.
 */
export function machineFingerprint(machine: AnyStateMachine): string {
  const text = describeMachineDefinition(machine)
  return `${fnv1a(text, 0x811c9dc5)}${fnv1a(text, 0x050c5d1f)}`
}
