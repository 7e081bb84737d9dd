import {
  type AnyActorRef,
  type AnyStateMachine,
  createActor,
  getStateNodes,
  type Snapshot,
} from 'xstate'
import { isObject, requireFunction } from '../../src/errors/arguments'
import {
  parsePersistedState,
  UNIVERSAL_LINK_STATE_FORMAT,
  UNIVERSAL_LINK_STATE_FORMAT_VERSION,
  type UniversalLinkPersistedState,
} from '../../src/universal-link/persisted-state'
import type { UniversalLinkStore } from '../../src/universal-link/store'
import { requireMethods } from '../shared/argument-shapes'
import { contextKeys } from './client.fingerprint'

/**
 * Turns a record of an older schema (the `fingerprint` it was written under, e.g. `client.link@1`, is
 * the key it is registered under) into one of the current schema, or returns `null` to discard it.
 * May throw: a throw discards the record too.
 */
export type SnapshotMigration = (record: {
  snapshot: unknown
  tokens: Record<string, string>
}) => { snapshot: unknown; tokens: Record<string, string> } | null

/** Migrations by the record schema (`name@version`) they migrate from. */
export type SnapshotMigrations = Readonly<Record<string, SnapshotMigration>>

/**
 * Whether a stored root snapshot can be restored: the snapshot, its secrets and whether it was
 * migrated, or the reason it is discarded.
 */
export type RestoreCheck =
  | { ok: true; snapshot: Snapshot<unknown>; tokens: Record<string, string>; migrated: boolean }
  | { ok: false; reason: string }

/** The tag every machine of a restorable tree must carry. */
export const RESUMABLE = 'resumable'

interface TaggedSnapshot {
  status: string
  value?: unknown
  hasTag?: (tag: string) => boolean
  context?: unknown
  machine?: AnyStateMachine
  children?: Record<string, AnyActorRef | undefined>
}

/**
 * A record written by a release before record schemas: its `fingerprint` is a 16-hex hash of the
 * whole machine. It is checked against today's schema and a trial restore like any other record.
 */
const LEGACY_FINGERPRINT = /^[0-9a-f]{16}$/

/** Every invoke of every active state has its child in the restored snapshot (an invoke renamed: no). */
function invokesPresent(snapshot: TaggedSnapshot): boolean {
  const active = snapshot.machine
    ? getStateNodes(snapshot.machine.root, snapshot.value as never)
    : []
  for (const node of active)
    for (const invoke of node.invoke) if (!snapshot.children?.[invoke.id]) return false
  for (const child of Object.values(snapshot.children ?? {})) {
    const childSnapshot = child?.getSnapshot() as TaggedSnapshot | undefined
    if (
      childSnapshot &&
      typeof childSnapshot.hasTag === 'function' &&
      !invokesPresent(childSnapshot)
    )
      return false
  }
  return true
}

/** Every machine of the tree has the context keys its definition gives (a field added is a misfit). */
function contextsFit(snapshot: TaggedSnapshot): boolean {
  if (snapshot.machine) {
    const expected = contextKeys(snapshot.machine)
    const actual = Object.keys((snapshot.context as object | undefined) ?? {})
      .sort()
      .join(',')
    if (expected !== '(unknown)' && expected !== actual) return false
  }
  for (const child of Object.values(snapshot.children ?? {})) {
    const childSnapshot = child?.getSnapshot() as TaggedSnapshot | undefined
    if (childSnapshot && typeof childSnapshot.hasTag === 'function' && !contextsFit(childSnapshot))
      return false
  }
  return true
}

/**
 * True when the actor tree may be persisted: every actor of it is active, and the root and every
 * state-machine child below it are in a state tagged `resumable` (promise actors restart on restore).
 * The resumable states are thus derived from the charts' tags, not from a list.
 */
export function isResumableTree(snapshot: unknown): boolean {
  const s = snapshot as TaggedSnapshot
  if (s?.status !== 'active' || typeof s.hasTag !== 'function') return false
  if (!s.hasTag(RESUMABLE)) return false
  for (const child of Object.values(s.children ?? {})) {
    const childSnapshot = child?.getSnapshot() as TaggedSnapshot | undefined
    // Every child is running (an errored, stopped or unrestorable one never resumes)…
    if (childSnapshot?.status !== 'active') return false
    // …and a machine child is itself resumable.
    if (typeof childSnapshot.hasTag === 'function' && !isResumableTree(childSnapshot)) return false
  }
  return true
}

/** What `checkRestorable` checks a record against. */
export interface RestoreOptions {
  machine: AnyStateMachine
  /**
   * The schema (`name@version`, e.g. `client.link@1`) of the records this release writes: a record
   * of another schema needs a registered migration (records of releases before schemas carry a hash
   * and are checked against today's schema). Unrelated chart changes leave it as it is.
   */
  fingerprint: string
  migrations?: SnapshotMigrations
  now?: number
  /** The root state the snapshot must restore into (`link`, `relay`): a record of another flow is not restored. */
  state?: string
  /**
   * Checks the values of the persisted snapshot (plain JSON, after any migration, before the
   * trial restore): the reason it cannot be restored, or null (see `client.restore-values`).
   */
  values?: (snapshot: unknown) => string | null
}

/**
 * Decides whether a stored value can be restored into `machine` (provided with its real actors):
 * the envelope, the expiry, the record schema (another one needs a registered migration), then a
 * trial restore — an actor is created from the snapshot, not started — which must give an active
 * tree in `resumable` states. Never throws, never starts anything.
 */
export function checkRestorable(value: unknown, options: RestoreOptions): RestoreCheck {
  const state = parsePersistedState(value)
  if (!state) return { ok: false, reason: 'the stored record is not a valid envelope' }
  return checkRestorableRecord(state, options)
}

/**
 * `checkRestorable` past the envelope: the expiry, the record schema (or a migration), the trial
 * restore. For stores with an envelope of their own (the relay pairing's). Never throws.
 */
export function checkRestorableRecord(
  state: {
    fingerprint: string
    expiresAt: number
    snapshot: unknown
    tokens: Record<string, string>
  },
  options: RestoreOptions,
): RestoreCheck {
  // Never throws, also for arguments of the wrong shape: they are a reason like any other.
  if (
    !isObject(state) ||
    typeof state.fingerprint !== 'string' ||
    typeof state.expiresAt !== 'number' ||
    !isObject(state.tokens)
  )
    return { ok: false, reason: 'the stored record is not a valid envelope' }
  if (
    !isObject(options) ||
    typeof options.fingerprint !== 'string' ||
    !isObject(options.machine) ||
    (options.now !== undefined && typeof options.now !== 'number')
  )
    return { ok: false, reason: 'the restore options are not valid (machine, fingerprint, now)' }
  if (state.expiresAt <= (options.now ?? Date.now()))
    return { ok: false, reason: 'the stored flow has expired' }
  let record = { snapshot: state.snapshot, tokens: state.tokens }
  let migrated = false
  if (state.fingerprint !== options.fingerprint) {
    const migrate = options.migrations?.[state.fingerprint]
    if (typeof migrate === 'function') {
      try {
        const next = migrate(record)
        if (next === null)
          return { ok: false, reason: `the migration from ${state.fingerprint} discarded it` }
        if (!isObject(next) || !isObject(next.tokens))
          return { ok: false, reason: `the migration from ${state.fingerprint} returned no record` }
        record = next
      } catch (error) {
        return {
          ok: false,
          reason: `the migration from ${state.fingerprint} failed: ${String(error)}`,
        }
      }
    } else if (!LEGACY_FINGERPRINT.test(state.fingerprint)) {
      return {
        ok: false,
        reason: `the record was written under schema ${state.fingerprint}, this release reads ${options.fingerprint}, and no migration is registered`,
      }
    }
    migrated = true
  }
  try {
    const problem = options.values?.(record.snapshot) ?? null
    if (problem !== null) return { ok: false, reason: String(problem) }
    const trial = createActor(options.machine, { snapshot: record.snapshot as never })
    const restored = trial.getSnapshot() as TaggedSnapshot & { matches(state: string): boolean }
    if (options.state !== undefined && !restored.matches(options.state))
      return { ok: false, reason: `the snapshot is not of the ${options.state} flow` }
    if (!isResumableTree(restored))
      return { ok: false, reason: 'the snapshot is not in a resumable state' }
    if (!invokesPresent(restored))
      return { ok: false, reason: 'an invoked actor of the snapshot is missing (renamed invoke?)' }
    if (!contextsFit(restored))
      return { ok: false, reason: 'the snapshot context does not have the fields of this machine' }
  } catch (error) {
    return { ok: false, reason: `the snapshot does not fit the machine: ${String(error)}` }
  }
  return {
    ok: true,
    snapshot: record.snapshot as Snapshot<unknown>,
    tokens: record.tokens,
    migrated,
  }
}

/**
 * The root's persisted snapshot with only the child its flow needs (`universalLink`, `pairing`):
 * a read in flight, or whatever else runs beside the flow, is not the record's (and its output,
 * a `bigint` balance, would not even serialise). JSON-safe by construction: charts keep plain data.
 */
export function flowSnapshot(root: AnyActorRef, child: string): Snapshot<unknown> {
  const persisted = root.getPersistedSnapshot() as { children?: Record<string, unknown> }
  const kept = persisted.children?.[child]
  const children = kept === undefined ? {} : { [child]: kept }
  return { ...persisted, children } as unknown as Snapshot<unknown>
}

/** How `persistWhileResumable` writes the envelope. */
export interface PersistOptions {
  fingerprint: string
  /** The session tokens the restored flow needs (stored once, beside the snapshot). */
  tokens: () => Record<string, string>
  /** When the record stops being useful (ms epoch), e.g. the session's expiry. */
  expiresAt: () => number
  now?: () => number
  /** Persist only while the root is in this state (`link`): another flow's resumable state is not this store's. */
  state?: string
  /** The root's child that carries the flow (`universalLink`): the only child kept (`flowSnapshot`). */
  child: string
}

/**
 * Saves the actor's deep persisted snapshot (children included) whenever the tree is resumable, and
 * clears the store as soon as it is not (flow ended, cancelled, disconnected, another wallet) — so
 * the store never outlives the flow. Returns the unsubscribe function.
 * @throws `INVALID_CONFIG` when `actor` is not an actor, `store` lacks `save` / `clear`, or `options`
 * lacks `tokens` / `expiresAt` (or `now` is not a function).
 */
export function persistWhileResumable(
  actor: AnyActorRef,
  store: UniversalLinkStore,
  options: PersistOptions,
): () => void {
  const fn = 'persistWhileResumable'
  requireMethods(actor, `${fn}: actor`, 'subscribe getPersistedSnapshot')
  requireMethods(store, `${fn}: store`, 'save clear')
  requireMethods(options, `${fn}: options`, 'tokens expiresAt')
  requireFunction(options.now, `${fn}: options.now`, true)
  const now = options.now ?? Date.now
  let saved = false
  const subscription = actor.subscribe({
    next(snapshot) {
      const inFlow = options.state === undefined || snapshot.matches?.(options.state) === true
      if (!inFlow || !isResumableTree(snapshot)) {
        if (saved || snapshot.status !== 'active') store.clear()
        saved = false
        return
      }
      const envelope: UniversalLinkPersistedState = {
        format: UNIVERSAL_LINK_STATE_FORMAT,
        formatVersion: UNIVERSAL_LINK_STATE_FORMAT_VERSION,
        fingerprint: options.fingerprint,
        savedAt: now(),
        expiresAt: options.expiresAt(),
        snapshot: flowSnapshot(actor, options.child),
        tokens: options.tokens(),
      }
      store.save(envelope)
      saved = true
    },
    error: () => store.clear(),
  })
  return () => subscription.unsubscribe()
}
