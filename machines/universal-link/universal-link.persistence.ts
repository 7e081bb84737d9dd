import type { AnyActorRef, Snapshot } from 'xstate'
import * as z from 'zod/mini'
import {
  parsePersistedState,
  UNIVERSAL_LINK_STATE_FORMAT,
  UNIVERSAL_LINK_STATE_FORMAT_VERSION,
  type UniversalLinkPersistedState,
} from '../../src/universal-link/persisted-state'
import { UNIVERSAL_LINK_MACHINE_VERSION } from './universal-link.machine'
import { RESUMABLE_TAG } from './universal-link.types'

/** States whose snapshot may be restored: the ones tagged `resumable` in the chart. */
const RESUMABLE_STATES = ['awaitingWallet', 'connected', 'awaitingSignature'] as const

const SessionSchema = z.object({
  sessionId: z.string().check(z.minLength(1)),
  nonce: z.string().check(z.minLength(1)),
  sessionToken: z.string().check(z.minLength(1)),
  expiresAt: z.int(),
})

/** The parts of a persisted snapshot that must be right before XState is handed it. */
const ResumableSnapshotSchema = z.object({
  status: z.literal('active'),
  value: z.enum(RESUMABLE_STATES),
  context: z.object({
    walletId: z.string(),
    chainId: z.string(),
    session: SessionSchema,
    walletAddress: z.nullable(z.string()),
    request: z.nullable(
      z.object({
        method: z.enum(['signMessage', 'signTransaction']),
        payload: z.nullable(z.string()),
      }),
    ),
  }),
})

/** Wraps a persisted snapshot in the versioned envelope the store keeps. */
export function toPersistedState(
  snapshot: Snapshot<unknown>,
  expiresAt: number,
  now = Date.now(),
): UniversalLinkPersistedState {
  return {
    format: UNIVERSAL_LINK_STATE_FORMAT,
    formatVersion: UNIVERSAL_LINK_STATE_FORMAT_VERSION,
    machineVersion: UNIVERSAL_LINK_MACHINE_VERSION,
    savedAt: now,
    expiresAt,
    snapshot,
  }
}

export type RestoreCheck =
  | { ok: true; snapshot: Snapshot<unknown>; state: (typeof RESUMABLE_STATES)[number] }
  | { ok: false; reason: string }

/**
 * Decides whether a stored value can be rehydrated: the envelope's format, the machine version,
 * the expiry, and the snapshot itself (a resumable state with a session). Never throws.
 */
export function checkRestorable(value: unknown, now = Date.now()): RestoreCheck {
  const state = parsePersistedState(value)
  if (!state) return { ok: false, reason: 'the stored record is not a valid envelope' }
  if (state.machineVersion !== UNIVERSAL_LINK_MACHINE_VERSION) {
    return {
      ok: false,
      reason: `machine version ${state.machineVersion} is not ${UNIVERSAL_LINK_MACHINE_VERSION}`,
    }
  }
  if (state.expiresAt <= now) return { ok: false, reason: 'the stored flow has expired' }
  const snapshot = ResumableSnapshotSchema.safeParse(state.snapshot)
  if (!snapshot.success) return { ok: false, reason: 'the snapshot is not in a resumable state' }
  if (snapshot.data.context.session.expiresAt <= now)
    return { ok: false, reason: 'the session has expired' }
  return { ok: true, snapshot: state.snapshot as Snapshot<unknown>, state: snapshot.data.value }
}

/**
 * Saves the actor's persisted snapshot on every change in a resumable state, and clears the store
 * when the actor stops (final state, error) — so the store never outlives the flow.
 */
export function persistWhileResumable(
  actor: AnyActorRef,
  store: { save(state: UniversalLinkPersistedState): void; clear(): void },
): () => void {
  const subscription = actor.subscribe({
    next(snapshot) {
      if (snapshot.status !== 'active') return store.clear()
      if (!snapshot.hasTag(RESUMABLE_TAG)) return
      const persisted = actor.getPersistedSnapshot() as Snapshot<unknown> & {
        context: { session: { expiresAt: number } }
      }
      store.save(toPersistedState(persisted, persisted.context.session.expiresAt))
    },
    error: () => store.clear(),
  })
  return () => subscription.unsubscribe()
}
