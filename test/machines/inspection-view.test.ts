import { describe, expect, it } from 'vitest'
import {
  type AnyActorRef,
  createActor,
  createMachine,
  type InspectionEvent,
  sendTo,
  setup,
} from 'xstate'
import { createRedactingInspector } from '../../machines/client/client.redact'
import { sanitizeInspectionEvent } from '../../machines/shared/inspect'
import { createSecretRegistry } from '../../machines/shared/secret-registry'

const SECRET = 'sk-0123456789abcdef'

/** A parent that keeps a spawned child's ref in context and sends it an event carrying its own ref. */
function inspectedFamily() {
  const child = createMachine({
    id: 'child',
    initial: 'a',
    states: { a: { on: { FROM: 'b' } }, b: {} },
  })
  const parent = setup({ actors: { child } }).createMachine({
    id: 'parent',
    context: ({ spawn }) => ({ kid: spawn('child', { id: 'kid', systemId: 'kid-system' }) }),
    on: {
      PING: {
        actions: sendTo(
          ({ context }) => context.kid,
          ({ self, event }) => ({
            type: 'FROM',
            from: self,
            note: (event as { note?: string }).note,
          }),
        ),
      },
    },
  })
  const secrets = createSecretRegistry()
  secrets.add(SECRET)
  const events: InspectionEvent[] = []
  const actor = createActor(parent, {
    inspect: createRedactingInspector((event) => events.push(event), secrets),
  }).start()
  actor.send({ type: 'PING', note: `before ${SECRET} after` })
  return { events, actor }
}

describe('inspection events show actor refs as ids', () => {
  it('behavior: refs in context, in a snapshot, in an event, as actorRef and sourceRef', () => {
    const { events, actor } = inspectedFamily()
    const kid = { id: 'kid', sessionId: expect.any(String), systemId: 'kid-system' }
    const parentRef = { id: actor.id, sessionId: actor.sessionId }
    const snapshots = events.filter(
      (e) => e.type === '@xstate.snapshot' && e.actorRef.sessionId === actor.sessionId,
    )
    const last = snapshots.at(-1) as unknown as {
      snapshot: { context: unknown; children: unknown }
    }
    expect(last.snapshot.context).toEqual({ kid })
    expect(last.snapshot.children).toEqual({ kid })
    const from = events.find((e) => e.type === '@xstate.event' && e.event.type === 'FROM') as
      | (InspectionEvent & { type: '@xstate.event' })
      | undefined
    expect(from?.event).toEqual({ type: 'FROM', from: parentRef, note: 'before [redacted] after' })
    expect({ ...from?.actorRef }).toEqual(kid)
    expect({ ...from?.sourceRef }).toEqual(parentRef)
    for (const event of events) expect(JSON.stringify(event).length).toBeLessThan(2048)
    expect(JSON.stringify(events)).not.toContain(SECRET)
  })

  it('behavior: a reader can still follow a ref: its parent, its definition, its snapshot', () => {
    const { events, actor } = inspectedFamily()
    const ref = events.find((e) => (e.actorRef as AnyActorRef).id === 'kid')
      ?.actorRef as AnyActorRef & {
      _parent?: { sessionId: string }
      logic?: { config?: { id?: string } }
    }
    expect(ref._parent?.sessionId).toBe(actor.sessionId)
    expect(ref.logic?.config?.id).toBe('child')
    expect(ref.getSnapshot()).toMatchObject({ value: 'b', status: 'active', children: {} })
  })
})

describe('sanitizeInspectionEvent (standalone factories: redaction by key)', () => {
  it('behavior: hides the strings under secret keys and shows what only looks like one', () => {
    const event = {
      type: '@xstate.snapshot',
      actorRef: { id: 'a', sessionId: 'x:1', getSnapshot: () => ({}) },
      rootId: 'x:1',
      event: { type: 'X' },
      snapshot: {
        status: 'active',
        context: {
          timeouts: { signatureMs: 5 },
          signatures: 2,
          signature: null,
          tokenAddress: 'native',
          sessionToken: SECRET,
          result: { signature: SECRET, txSignature: SECRET },
          symKeyP: new Uint8Array(32),
        },
      },
    } as unknown as InspectionEvent
    const safe = sanitizeInspectionEvent(event) as unknown as { snapshot: { context: unknown } }
    expect(safe.snapshot.context).toEqual({
      timeouts: { signatureMs: 5 },
      signatures: 2,
      signature: null,
      tokenAddress: 'native',
      sessionToken: '[redacted]',
      result: { signature: '[redacted]', txSignature: '[redacted]' },
      symKeyP: '[redacted]',
    })
  })
})
