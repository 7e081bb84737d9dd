import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js'
import type { AnyActorRef, AnyStateMachine, Snapshot } from 'xstate'
import * as z from 'zod/mini'
import { requireFunction } from '../../src/errors/arguments'
import { createLogger } from '../../src/logging'
import { PeerMetadataSchema, SettledNamespacesSchema } from '../../src/relay/protocol/schemas'
import { createLocalStorageRecord } from '../../src/storage/local-storage-record'
import type { RecordEnvelope, RecordStore } from '../../src/storage/record-store'
import {
  checkRestorableRecord,
  flowSnapshot,
  isResumableTree,
  type SnapshotMigrations,
} from '../client/client.persistence'
import { restartableRelayConnection } from '../relay-connection/relay-connection.persistence'
import { requireMethods } from '../shared/argument-shapes'
import { dropRetiredOutcome } from '../shared/retired-outcome'
import { PAIRING_MACHINE_VERSION } from './pairing.machine'
import { PAIRING_RESUMABLE_TAG } from './pairing.types'
import type { PairingSecrets, PairingVault } from './pairing.vault'

/** The `format` tag of the persisted envelope. */
export const PAIRING_STATE_FORMAT = 'scope-connect/pairing'
/** The version of the envelope's own shape (not of the machine). */
export const PAIRING_STATE_FORMAT_VERSION = 1
/** The localStorage key `createBrowserPairingStore` uses by default. */
export const DEFAULT_PAIRING_STORAGE_KEY = 'scope-connect:pairing'

const HEX32 = z.string().check(z.regex(/^[0-9a-f]{64}$/))

/**
 * The versioned envelope of a settled session. `secrets` holds the session topic and key (hex),
 * beside — never inside — the machine snapshot: like the universal-link store's session token, it
 * must never be copied to logs or analytics.
 */
export interface PairingPersistedState extends RecordEnvelope {
  format: typeof PAIRING_STATE_FORMAT
  formatVersion: typeof PAIRING_STATE_FORMAT_VERSION
  machineVersion: number
  /**
   * Set when a `Client` wrote the record: the fingerprint of its root machine, whose deep snapshot
   * `snapshot` then is (the pairing is its `pairing` child). Absent: a `startPairing` flow's record.
   */
  fingerprint?: string
  /** ms since the epoch. */
  savedAt: number
  /** ms since the epoch: the session's expiry; past it the record is discarded. */
  expiresAt: number
  /** `actor.getPersistedSnapshot()`, JSON-safe, secret-free. */
  snapshot: unknown
  secrets: { pairingId: string; sessionTopic: string; symKeyS: string; publicKey: string }
}

/** Where a settled pairing survives a reload. Must not throw. */
export type PairingStore = RecordStore<PairingPersistedState>

const EnvelopeSchema = z.object({
  format: z.literal(PAIRING_STATE_FORMAT),
  formatVersion: z.literal(PAIRING_STATE_FORMAT_VERSION),
  machineVersion: z.int().check(z.gte(0)),
  fingerprint: z.optional(z.string()),
  savedAt: z.int().check(z.gte(0)),
  expiresAt: z.int().check(z.gte(0)),
  snapshot: z.record(z.string(), z.unknown()),
  secrets: z.object({
    pairingId: z.string().check(z.regex(/^[0-9a-f]{32}$/)),
    sessionTopic: HEX32,
    symKeyS: HEX32,
    publicKey: HEX32,
  }),
})

/** The parts of a persisted snapshot that must be right before XState is handed it. */
const ResumableSnapshotSchema = z.object({
  status: z.literal('active'),
  value: z.object({
    active: z.object({
      flow: z.object({ paired: z.literal('idle') }),
      connectivity: z.enum(['connecting', 'online', 'reconnecting', 'offline']),
    }),
  }),
  context: z.object({
    pairingId: z.string(),
    session: z.object({
      namespaces: SettledNamespacesSchema,
      peer: z.object({ publicKey: HEX32, metadata: PeerMetadataSchema }),
      expiresAt: z.int(),
    }),
  }),
})

/**
 * Whether a stored paired session can be restored: the snapshot, its pairing id and secrets, or the
 * reason it is discarded.
 */
export type PairingRestoreCheck =
  | { ok: true; snapshot: Snapshot<unknown>; pairingId: string; secrets: PairingSecrets }
  | { ok: false; reason: string }

/**
 * Decides whether a stored value can be rehydrated — the same rules as the universal-link flow:
 * the envelope's format and version, the machine version, the expiry, and the snapshot itself (in
 * the resumable `paired.idle`, for the same pairing as the keys). Never throws.
 */
export function checkRestorablePairing(value: unknown, now = Date.now()): PairingRestoreCheck {
  const envelope = EnvelopeSchema.safeParse(value)
  if (!envelope.success) return { ok: false, reason: 'the stored record is not a valid envelope' }
  const state = dropRetiredOutcome(envelope.data)
  if (state.machineVersion !== PAIRING_MACHINE_VERSION) {
    return {
      ok: false,
      reason: `machine version ${state.machineVersion} is not ${PAIRING_MACHINE_VERSION}`,
    }
  }
  if (state.expiresAt <= now) return { ok: false, reason: 'the stored session has expired' }
  const snapshot = ResumableSnapshotSchema.safeParse(state.snapshot)
  if (!snapshot.success) return { ok: false, reason: 'the snapshot is not in a resumable state' }
  if (snapshot.data.context.pairingId !== state.secrets.pairingId) {
    return { ok: false, reason: 'the keys belong to another pairing' }
  }
  if (snapshot.data.context.session.expiresAt <= now) {
    return { ok: false, reason: 'the session has expired' }
  }
  return restored(state, state.snapshot as Snapshot<unknown>)
}

function restored(state: z.infer<typeof EnvelopeSchema>, snapshot: Snapshot<unknown>) {
  return {
    ok: true as const,
    snapshot,
    pairingId: state.secrets.pairingId,
    secrets: {
      pairingTopic: '',
      symKeyP: new Uint8Array(0),
      privateKey: null,
      publicKey: state.secrets.publicKey,
      uri: '',
      sessionTopic: state.secrets.sessionTopic,
      symKeyS: hexToBytes(state.secrets.symKeyS),
    },
  }
}

/** The parts of a `Client` root snapshot the keys must match: its relay pairing and the child's. */
const PairedRootSchema = z.object({
  context: z.object({ relay: z.object({ input: z.object({ pairingId: z.string() }) }) }),
  children: z.object({
    pairing: z.object({ snapshot: z.object({ context: z.object({ pairingId: z.string() }) }) }),
  }),
})

/**
 * Decides whether a `Client`'s stored paired session can be restored into its root `machine`
 * (provided with the real pairing machine) — the universal-link flow's rules: the envelope and the
 * pairing machine version, the expiry, the root fingerprint (another one needs a registered
 * migration), a trial restore that gives the root in `relay` with an active, resumable tree; and
 * keys of the same pairing as the snapshot. Never throws.
 */
export function checkRestorablePairedRoot(
  value: unknown,
  options: {
    machine: AnyStateMachine
    fingerprint: string
    migrations?: SnapshotMigrations
    now?: number
    /** Checks the values of the persisted root snapshot (`rootRecordProblem`). */
    values?: (snapshot: unknown) => string | null
  },
): PairingRestoreCheck {
  const envelope = EnvelopeSchema.safeParse(value)
  if (!envelope.success) return { ok: false, reason: 'the stored record is not a valid envelope' }
  const state = dropRetiredOutcome(envelope.data, 'pairing')
  if (state.machineVersion !== PAIRING_MACHINE_VERSION) {
    return {
      ok: false,
      reason: `machine version ${state.machineVersion} is not ${PAIRING_MACHINE_VERSION}`,
    }
  }
  if (state.fingerprint === undefined)
    return { ok: false, reason: 'the record is a standalone pairing (resumePairing), not a Client' }
  const check = checkRestorableRecord(
    {
      fingerprint: state.fingerprint,
      expiresAt: state.expiresAt,
      snapshot: state.snapshot,
      tokens: {},
    },
    { ...options, state: 'relay' },
  )
  if (!check.ok) return check
  const root = PairedRootSchema.safeParse(check.snapshot)
  if (
    !root.success ||
    root.data.context.relay.input.pairingId !== state.secrets.pairingId ||
    root.data.children.pairing.snapshot.context.pairingId !== state.secrets.pairingId
  ) {
    return { ok: false, reason: 'the keys belong to another pairing' }
  }
  return restored(state, check.snapshot)
}

type WithChildren = { children?: Record<string, { snapshot?: unknown } & Record<string, unknown>> }

/** A persisted pairing whose `relayConnection` child will start afresh on the next page. */
function pairingRecord<T>(persisted: T): T {
  const children = (persisted as WithChildren).children
  if (children?.relayConnection === undefined) return persisted
  return {
    ...persisted,
    children: {
      ...children,
      relayConnection: restartableRelayConnection(children.relayConnection),
    },
  }
}

/** A persisted `Client` root whose pairing child's relay connection will start afresh. */
function pairedRootRecord(persisted: Snapshot<unknown>): Snapshot<unknown> {
  const pairing = (persisted as WithChildren).children?.pairing
  if (pairing?.snapshot === undefined) return persisted
  return {
    ...persisted,
    children: { pairing: { ...pairing, snapshot: pairingRecord(pairing.snapshot) } },
  } as unknown as Snapshot<unknown>
}

/**
 * Saves a `Client` root's deep snapshot (the session keys from the vault beside it) whenever it is
 * paired with a resumable tree, keeps the last record while a request is in flight, and clears it
 * once the root leaves the relay flow (disconnect, the wallet's delete, another wallet, a new pair).
 */
export function persistPairedRoot(
  root: AnyActorRef,
  store: PairingStore,
  vault: PairingVault,
  options: { fingerprint: string; now?: () => number },
): () => void {
  const now = options.now ?? Date.now
  let saved = false
  const subscription = root.subscribe({
    next(snapshot) {
      if (snapshot.status !== 'active' || !snapshot.matches('relay')) {
        if (saved) store.clear()
        saved = false
        return
      }
      if (!isResumableTree(snapshot)) return
      const persisted = pairedRootRecord(flowSnapshot(root, 'pairing'))
      const parsed = PairedRootSchema.safeParse(persisted)
      const pairing = snapshot.children?.pairing?.getSnapshot() as
        | { context?: { session?: { expiresAt: number } | null } }
        | undefined
      const pairingId = parsed.success ? parsed.data.context.relay.input.pairingId : ''
      const secrets = vault.get(pairingId)
      const expiresAt = pairing?.context?.session?.expiresAt
      if (!secrets?.sessionTopic || !secrets.symKeyS || expiresAt === undefined) return
      store.save({
        format: PAIRING_STATE_FORMAT,
        formatVersion: PAIRING_STATE_FORMAT_VERSION,
        machineVersion: PAIRING_MACHINE_VERSION,
        fingerprint: options.fingerprint,
        savedAt: now(),
        expiresAt,
        snapshot: persisted,
        secrets: {
          pairingId,
          sessionTopic: secrets.sessionTopic,
          symKeyS: bytesToHex(secrets.symKeyS),
          publicKey: secrets.publicKey,
        },
      })
      saved = true
    },
    error: () => store.clear(),
  })
  return () => subscription.unsubscribe()
}

/**
 * Saves the actor's persisted snapshot (and the session's keys from the vault) on every change in
 * a `resumable` state, and clears the store when the actor stops (final state, error).
 * @throws `INVALID_CONFIG` when `actor` is not an actor, `store` / `vault` lack their methods, or
 * `now` is not a function.
 */
export function persistWhilePaired(
  actor: AnyActorRef,
  store: PairingStore,
  vault: PairingVault,
  now: () => number = Date.now,
): () => void {
  const fn = 'persistWhilePaired'
  requireMethods(actor, `${fn}: actor`, 'subscribe getPersistedSnapshot')
  requireMethods(store, `${fn}: store`, 'save clear')
  requireMethods(vault, `${fn}: vault`, 'get')
  requireFunction(now, `${fn}: now`)
  const subscription = actor.subscribe({
    next(snapshot) {
      if (snapshot.status !== 'active') return store.clear()
      if (!snapshot.hasTag(PAIRING_RESUMABLE_TAG)) return
      const persisted = pairingRecord(actor.getPersistedSnapshot()) as Snapshot<unknown> & {
        context: { pairingId: string; session: { expiresAt: number } }
      }
      const secrets = vault.get(persisted.context.pairingId)
      if (!secrets?.sessionTopic || !secrets.symKeyS) return
      store.save({
        format: PAIRING_STATE_FORMAT,
        formatVersion: PAIRING_STATE_FORMAT_VERSION,
        machineVersion: PAIRING_MACHINE_VERSION,
        savedAt: now(),
        expiresAt: persisted.context.session.expiresAt,
        snapshot: persisted,
        secrets: {
          pairingId: persisted.context.pairingId,
          sessionTopic: secrets.sessionTopic,
          symKeyS: bytesToHex(secrets.symKeyS),
          publicKey: secrets.publicKey,
        },
      })
    },
    error: () => store.clear(),
  })
  return () => subscription.unsubscribe()
}

const log = createLogger('pairing-store')

/**
 * A `PairingStore` on browser `localStorage` (nothing, safely, in SSR or without storage). A value
 * that is not JSON is removed; `checkRestorablePairing` judges the rest. Logs only what it did.
 */
export function createBrowserPairingStore(
  storageKey: string = DEFAULT_PAIRING_STORAGE_KEY,
): PairingStore {
  // Any JSON object: `checkRestorablePairing` judges it (and says why it discards one).
  const parse = (value: unknown) =>
    typeof value === 'object' && value !== null ? (value as PairingPersistedState) : null
  return createLocalStorageRecord({ storageKey, parse, log, what: 'pairing' })
}
