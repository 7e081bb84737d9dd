import { createInspector } from '@statelyai/inspect'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, type InspectionEvent } from 'xstate'
import { createMemoryTokenVault } from '../../machines/session-polling/session-polling.actors'
import {
  createSessionPollingActor,
  provideSessionPolling,
  resumeSessionPollingActor,
} from '../../machines/session-polling/session-polling.facade'
import { createSafeInspector, sanitizeInspectionEvent } from '../../machines/shared/inspect'
import { result, SESSION_ID, SIGNATURE, scriptedClient, TOKEN } from './support/fake-session'

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-08-20T10:00:00Z') })
})
afterEach(() => {
  vi.useRealTimers()
})

describe('persisted snapshots', () => {
  it('are JSON and hold neither the token nor any Error object', async () => {
    const client = scriptedClient([
      result('pending'),
      new Error('boom') as never,
      result('connected'),
    ])
    const actor = createSessionPollingActor(client, {
      session: { sessionId: SESSION_ID, sessionToken: TOKEN },
    }).start()
    await vi.advanceTimersByTimeAsync(2100)
    // The thrown Error is kept as plain data, so it survives JSON.
    const { context } = actor.getSnapshot()
    expect(context.lastError).toEqual({ code: 'BACKEND_ERROR', message: 'boom' })
    expect(JSON.parse(JSON.stringify(context))).toEqual(context)
    const json = JSON.stringify(actor.getPersistedSnapshot())
    expect(json).not.toContain(TOKEN)
    actor.stop()
  })

  it('resume while sleeping: polls again at once and keeps the absolute deadline', async () => {
    const vault = createMemoryTokenVault()
    const client = scriptedClient([result('pending'), result('pending'), result('signed')])
    const first = createSessionPollingActor(client, {
      session: { sessionId: SESSION_ID, sessionToken: TOKEN },
      timeoutMs: 60_000,
      vault,
    }).start()
    await vi.advanceTimersByTimeAsync(100)
    expect(first.getSnapshot().matches({ waiting: 'sleeping' })).toBe(true)
    const deadline = first.getSnapshot().context.deadline
    const saved = JSON.parse(JSON.stringify(first.getPersistedSnapshot()))
    first.stop()

    // "Page reload" 10 s later.
    await vi.advanceTimersByTimeAsync(10_000)
    const resumed = resumeSessionPollingActor(client, saved, { vault })
    expect(resumed.getSnapshot().context.deadline).toBe(deadline)
    await vi.advanceTimersByTimeAsync(10)
    expect(client.calls).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(2000)
    expect(resumed.getSnapshot().value).toBe('signed')
  })

  it('resume after the deadline: the next lookup ends in expired', async () => {
    const vault = createMemoryTokenVault()
    const client = scriptedClient([result('pending')])
    const first = createSessionPollingActor(client, {
      session: { sessionId: SESSION_ID, sessionToken: TOKEN },
      timeoutMs: 5000,
      vault,
    }).start()
    await vi.advanceTimersByTimeAsync(100)
    const saved = first.getPersistedSnapshot()
    first.stop()
    await vi.advanceTimersByTimeAsync(60_000)
    const resumed = resumeSessionPollingActor(client, saved, { vault })
    await vi.advanceTimersByTimeAsync(10)
    expect(resumed.getSnapshot().value).toBe('expired')
  })

  it('restore while fetching restarts the lookup (XState restarts invoked promises)', async () => {
    const vault = createMemoryTokenVault()
    vault.set(SESSION_ID, TOKEN)
    let release: (() => void) | undefined
    const client = scriptedClient([result('signed')])
    const slow = {
      ...client,
      getResult: (id: string, token: string) =>
        new Promise<Awaited<ReturnType<typeof client.getResult>>>((resolve) => {
          release = () => resolve(client.getResult(id, token))
        }),
    }
    const machine = provideSessionPolling(slow, vault)
    const first = createActor(machine, {
      input: { session: { sessionId: SESSION_ID }, startedAt: Date.now() },
    }).start()
    expect(first.getSnapshot().matches({ waiting: 'fetching' })).toBe(true)
    const saved = first.getPersistedSnapshot()
    first.stop()
    const restored = createActor(provideSessionPolling(client, vault), {
      snapshot: saved as never,
      input: undefined as never,
    }).start()
    await vi.advanceTimersByTimeAsync(10)
    expect(restored.getSnapshot().value).toBe('signed')
    expect(release).toBeDefined()
  })
})

describe('inspection', () => {
  it('the factory sanitises what the inspector sees by default', async () => {
    const seen: InspectionEvent[] = []
    const client = scriptedClient([result('pending'), result('signed')])
    const actor = createSessionPollingActor(client, {
      session: { sessionId: SESSION_ID, sessionToken: TOKEN },
      inspect: (event) => seen.push(event),
    }).start()
    await vi.advanceTimersByTimeAsync(5000)
    expect(actor.getSnapshot().value).toBe('signed')
    expect(seen.some((e) => e.type === '@xstate.snapshot')).toBe(true)
    const dump = JSON.stringify(
      seen.map((e) => ({
        ...e,
        actorRef: undefined,
        sourceRef: undefined,
        snapshot:
          'snapshot' in e
            ? {
                context: (e.snapshot as { context?: unknown }).context,
                output: (e.snapshot as { output?: unknown }).output,
              }
            : null,
        actorSnapshot: e.actorRef.getSnapshot().context,
      })),
    )
    expect(dump).not.toContain(SIGNATURE)
    expect(dump).not.toContain(TOKEN)
    expect(dump).toContain('[redacted]')
  })

  it('sanitizeInspectionEvent redacts tokens, signatures and keys in events and snapshots', () => {
    const actorRef = {
      sessionId: 'x',
      getSnapshot: () => ({ context: { sessionToken: TOKEN, ok: 1 } }),
    }
    const event = {
      type: '@xstate.snapshot',
      actorRef,
      rootId: 'x',
      event: {
        type: 'xstate.done.actor.create',
        output: { sessionToken: TOKEN, symKey: 'aa', nested: { signature: SIGNATURE } },
      },
      snapshot: {
        value: 'a',
        context: { session: { sessionToken: TOKEN }, result: { signature: SIGNATURE } },
        output: { signature: SIGNATURE },
      },
    } as unknown as InspectionEvent
    const safe = sanitizeInspectionEvent(event) as unknown as {
      event: unknown
      snapshot: { context: unknown; output: unknown; value: string }
      actorRef: { getSnapshot(): unknown; sessionId: string }
    }
    const text = JSON.stringify([
      safe.event,
      safe.snapshot.context,
      safe.snapshot.output,
      safe.actorRef.getSnapshot(),
    ])
    expect(text).not.toContain(TOKEN)
    expect(text).not.toContain(SIGNATURE)
    expect(safe.snapshot.value).toBe('a')
    expect(safe.actorRef.sessionId).toBe('x')
    // The original is untouched.
    expect(JSON.stringify((event as unknown as { snapshot: unknown }).snapshot)).toContain(TOKEN)
  })

  it('works with @statelyai/inspect: what its adapter sends holds no token or signature', async () => {
    const sent: unknown[] = []
    const inspector = createInspector({
      send: (event: unknown) => sent.push(event),
      start() {},
      stop() {},
    })
    const client = scriptedClient([result('pending'), result('signed')])
    const actor = createSessionPollingActor(client, {
      session: { sessionId: SESSION_ID, sessionToken: TOKEN },
      inspect: inspector.inspect,
    }).start()
    await vi.advanceTimersByTimeAsync(5000)
    expect(actor.getSnapshot().value).toBe('signed')
    const types = new Set(sent.map((e) => (e as { type: string }).type))
    expect(types).toEqual(new Set(['@xstate.actor', '@xstate.event', '@xstate.snapshot']))
    const text = JSON.stringify(sent)
    expect(text).toContain('"signed"')
    expect(text).not.toContain(SIGNATURE)
    expect(text).not.toContain(TOKEN)
  })

  it('createSafeInspector accepts observers too', () => {
    const next = vi.fn()
    const inspect = createSafeInspector({ next })
    inspect({
      type: '@xstate.event',
      actorRef: { getSnapshot: () => ({}) },
      event: { type: 'X', sessionToken: TOKEN },
    } as unknown as InspectionEvent)
    expect(JSON.stringify(next.mock.calls[0]?.[0].event)).not.toContain(TOKEN)
  })
})
