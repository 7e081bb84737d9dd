import {
  type AdmissionLimits,
  quotaRefusal,
  type RefusalReason,
  type StorageLoad,
} from './admission'
import { ExpiryQueue } from './expiry-queue'
import type { MailboxTotals, Publisher } from './mailbox'

/** Bytes and messages held. */
type Tally = [bytes: number, messages: number]

/**
 * One instance's storage usage as it tells the others (cluster reconciliation): what it charged
 * for live messages, by app key and by source (`<app>|<source>`), and `until`, the last expiry
 * of those messages (past it, the snapshot counts nothing even if its instance is gone).
 */
export interface UsageSnapshot {
  at: number
  until: number
  bytes: number
  messages: number
  apps: Record<string, Tally>
  sources: Record<string, Tally>
}

interface Charge {
  expiresAt: number
  app: string
  source: string
  bytes: number
  released: boolean
}

/** What a charge gives back (`cancel`); opaque to callers. */
export type ChargeHandle = { readonly expiresAt: number }

const add = (map: Map<string, Tally>, key: string, bytes: number, messages: number): boolean => {
  const tally = map.get(key)
  if (!tally) {
    map.set(key, [bytes, messages])
    return true
  }
  tally[0] += bytes
  tally[1] += messages
  if (tally[1] <= 0) {
    map.delete(key)
    return true
  }
  return false
}

const setOf = (map: Map<string, Set<string>>, key: string): Set<string> => {
  let set = map.get(key)
  if (!set) {
    set = new Set()
    map.set(key, set)
  }
  return set
}

/**
 * The storage quotas of `admission.ts` over the messages one process charged, released at their
 * expiry (an expiry queue). The in-process mailbox counts everything here; on a Redis Cluster each
 * instance counts its own publishes here, and adds the others' last snapshots (`setRemote`), so a
 * publish touches no slot but its topic's.
 */
export class UsageLedger {
  private readonly queue = new ExpiryQueue<Charge>()
  private readonly apps = new Map<string, Tally>()
  private readonly sources = new Map<string, Tally>()
  /** app → its sources holding messages here. */
  private readonly appSources = new Map<string, Set<string>>()
  private bytes = 0
  private messages = 0
  private until = 0
  private remote: RemoteUsage = emptyRemote()

  constructor(private readonly now: () => number) {}

  /** Gives back the charges whose messages have expired. */
  release(): void {
    const at = this.now()
    for (let charge = this.queue.popDue(at); charge; charge = this.queue.popDue(at)) {
      if (!charge.released) this.uncount(charge)
    }
  }

  /** Why a message of `bytes` (charged) from `from` may not be stored, or undefined. */
  refusal(from: Publisher, bytes: number, limits: AdmissionLimits): RefusalReason | undefined {
    this.release()
    const key = `${from.app}|${from.source}`
    const local = { app: this.apps.get(from.app), source: this.sources.get(key) }
    const remote = { app: this.remote.apps.get(from.app), source: this.remote.sources.get(key) }
    const ledger = this
    const load: StorageLoad = {
      sourceBytes: (local.source?.[0] ?? 0) + (remote.source?.[0] ?? 0),
      sourceMessages: (local.source?.[1] ?? 0) + (remote.source?.[1] ?? 0),
      appBytes: (local.app?.[0] ?? 0) + (remote.app?.[0] ?? 0),
      appMessages: (local.app?.[1] ?? 0) + (remote.app?.[1] ?? 0),
      mailboxBytes: this.bytes + this.remote.bytes,
      // Counted only when a ceiling is full.
      get appSources() {
        const here = ledger.appSources.get(from.app) ?? new Set<string>()
        let count = here.size + (here.has(key) ? 0 : 1)
        for (const other of ledger.remote.appSources.get(from.app) ?? []) {
          if (other !== key && !here.has(other)) count++
        }
        return count
      },
      get apps() {
        let count = ledger.apps.size + (ledger.apps.has(from.app) ? 0 : 1)
        for (const other of ledger.remote.apps.keys()) {
          if (other !== from.app && !ledger.apps.has(other)) count++
        }
        return count
      },
    }
    return quotaRefusal(load, bytes, limits)
  }

  /** Counts a stored (or reserved) message until `expiresAt`. */
  charge(from: Publisher, bytes: number, expiresAt: number): ChargeHandle {
    const charge: Charge = {
      expiresAt,
      app: from.app,
      source: `${from.app}|${from.source}`,
      bytes,
      released: false,
    }
    this.queue.push(charge)
    this.bytes += bytes
    this.messages++
    add(this.apps, charge.app, bytes, 1)
    if (add(this.sources, charge.source, bytes, 1)) {
      setOf(this.appSources, charge.app).add(charge.source)
    }
    this.until = Math.max(this.until, expiresAt)
    return charge
  }

  /** Gives a charge back now (its message was not stored, or is stored with another expiry). */
  cancel(handle: ChargeHandle): void {
    const charge = handle as Charge
    if (charge.released) return
    this.uncount(charge)
  }

  totals(): MailboxTotals {
    this.release()
    return { bytes: this.bytes + this.remote.bytes, messages: this.messages + this.remote.messages }
  }

  /** This process's own charges, for the other instances. */
  snapshot(): UsageSnapshot {
    this.release()
    return {
      at: this.now(),
      until: this.messages > 0 ? this.until : 0,
      bytes: this.bytes,
      messages: this.messages,
      apps: Object.fromEntries(this.apps),
      sources: Object.fromEntries(this.sources),
    }
  }

  /** The other instances' snapshots (replaces the previous ones); expired ones count nothing. */
  setRemote(snapshots: UsageSnapshot[]): void {
    const at = this.now()
    const remote = emptyRemote()
    for (const snapshot of snapshots) {
      if (snapshot.until <= at) continue
      remote.bytes += snapshot.bytes
      remote.messages += snapshot.messages
      for (const [app, [bytes, messages]] of Object.entries(snapshot.apps)) {
        add(remote.apps, app, bytes, messages)
      }
      for (const [source, [bytes, messages]] of Object.entries(snapshot.sources)) {
        add(remote.sources, source, bytes, messages)
        const app = source.slice(0, source.indexOf('|'))
        setOf(remote.appSources, app).add(source)
      }
    }
    this.remote = remote
  }

  private uncount(charge: Charge): void {
    charge.released = true
    this.bytes -= charge.bytes
    this.messages--
    add(this.apps, charge.app, -charge.bytes, -1)
    if (add(this.sources, charge.source, -charge.bytes, -1)) {
      const set = this.appSources.get(charge.app)
      set?.delete(charge.source)
      if (set?.size === 0) this.appSources.delete(charge.app)
    }
  }
}

interface RemoteUsage {
  bytes: number
  messages: number
  apps: Map<string, Tally>
  sources: Map<string, Tally>
  appSources: Map<string, Set<string>>
}

const emptyRemote = (): RemoteUsage => ({
  bytes: 0,
  messages: 0,
  apps: new Map(),
  sources: new Map(),
  appSources: new Map(),
})
