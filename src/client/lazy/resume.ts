import type { RestoreCheck } from '../../../machines/client/client.persistence'
import type { OperationOutcome } from '../../../machines/client/client.types'
import type { PairingRestoreCheck } from '../../../machines/pairing/pairing.persistence'
import { parseStoredConnection } from '../../connection/store'
import { isAppError } from '../../errors/app-error'
import type { TransactionHandle } from '../../transaction/types'
import type { ClientLoaders } from '../environment'
import type { RootHost } from '../host'
import type { ResumeResult } from '../options'
import type { PairedSession } from '../paired-session'
import type { ClientResume } from '../resume'
import type { ClientTransactions } from '../transactions'

/** The parts of a `Client` that `resume()` restores into. */
export interface ResumeParts {
  host: RootHost
  loaders: ClientLoaders
  transactions: ClientTransactions
  paired: PairedSession
  resume: ClientResume
}

const none = async () => null

/** `Client.resume`: see its documentation. */
export async function resumeClient(
  parts: ResumeParts,
  url: string | undefined,
): Promise<ResumeResult> {
  const { host, loaders, transactions } = parts
  const linked = await resumePhantomLink(parts, url)
  if (linked) return linked
  const paired = await resumePairing(parts)
  if (paired?.status === 'connected') return paired
  const store = await parts.resume.linkStore()
  const stored = store.load()
  if (stored === null) {
    // A record the store could not read (not JSON, not an envelope) is discarded with its reason.
    const reason = store.discarded?.() ?? null
    const nothing: ResumeResult =
      reason === null ? { status: 'none', wait: none } : { status: 'discarded', reason, wait: none }
    return (await reconnect(parts)) ?? paired ?? nothing
  }
  let check: RestoreCheck
  try {
    check = (await loaders.loadLink()).check(stored)
  } catch (error) {
    check = { ok: false, reason: `the flow could not be loaded: ${String(error)}` }
  }
  if (!check.ok) {
    store.clear()
    return { status: 'discarded', reason: check.reason, wait: none }
  }
  host.replace(check.snapshot)
  loaders.linkPart?.pollNow(host.actor)
  const view = host.view()
  const flow = host.actor.getSnapshot().context.flow
  const pending = host.actor.getSnapshot().context.pending !== null
  // One wait for the restored flow, shared by wait() and signature() (created on first use).
  let outcome: Promise<OperationOutcome | null> | undefined
  const settled = () => {
    outcome ??= pending ? host.wait(flow) : Promise.resolve(null)
    return outcome
  }
  const wait = async () => {
    await settled()
    return host.connection()
  }
  const connection = host.connection()
  if (view.status === 'awaitingSignature' || view.status === 'signing') {
    const signature = async () => (await settled())?.signature ?? ''
    const sign = host.actor.getSnapshot().context.sign
    if (sign?.request.method !== 'solana_signAndSendTransaction') {
      return { status: 'awaitingSignature', connection, wait, signature }
    }
    // The wallet is answering a sendTransaction: once it does, watch it as that call would have.
    let sent: Promise<TransactionHandle> | undefined
    const transaction = () => {
      sent ??= signature().then((hash) => transactions.watch(connection?.chainId ?? '', hash))
      return sent
    }
    void transaction().catch(() => {}) // the view follows it without the app asking
    return { status: 'awaitingSignature', connection, wait, signature, transaction }
  }
  return { status: view.isConnected ? 'connected' : 'awaitingWallet', connection, wait }
}

/**
 * Restores the stored desktop connection without a prompt (a root `reconnect` flow): `connected`;
 * `none` when the wallet no longer authorizes this site (locked, revoked); `discarded` when the
 * reconnect failed otherwise; null when nothing is stored. The record goes unless `connected`.
 */
async function reconnect({ host, resume }: ResumeParts): Promise<ResumeResult | null> {
  const store = await resume.connectionStore()
  // What a custom store answers is checked as the package's stores check it.
  const stored = parseStoredConnection(store?.load() ?? null)
  if (!store || stored === null) return null
  if (!host.view().isConnected) {
    try {
      await host.run({
        type: 'RECONNECT',
        walletId: stored.walletId,
        namespace: stored.namespace,
        connectorId: stored.connectorId,
      })
    } catch (error) {
      await resume.forgetConnection()
      if (isAppError(error, 'NOT_CONNECTED')) return { status: 'none', wait: none }
      const reason = isAppError(error) ? `${error.code}: ${error.shortMessage}` : String(error)
      return {
        status: 'discarded',
        reason: `the wallet did not reconnect (${reason})`,
        wait: none,
      }
    }
  }
  const connection = host.connection()
  return { status: 'connected', connection, wait: async () => host.connection() }
}

/** Restores the paired session of the pairing store, if any: `connected`, `discarded` or null (none). */
async function resumePairing({ host, loaders, paired }: ResumeParts): Promise<ResumeResult | null> {
  const store = loaders.options.pairing?.store
  const stored = store?.load() ?? null
  if (!store || stored === null) return null
  let check: PairingRestoreCheck
  try {
    check = (await loaders.loadPairing()).check(stored)
  } catch (error) {
    check = { ok: false, reason: `the pairing could not be loaded: ${String(error)}` }
  }
  if (!check.ok) {
    store.clear()
    return { status: 'discarded', reason: check.reason, wait: none }
  }
  paired.keepStore(store)
  host.replace(check.snapshot)
  paired.open(check.pairingId, null, host.actor.getSnapshot().context.flow)
  const connection = host.connection()
  return { status: 'connected', connection, wait: async () => host.connection() }
}

/** Phantom's deeplinks after the wallet's redirect: null (nothing loads) when there is no such flow. */
async function resumePhantomLink(
  { loaders, resume }: ResumeParts,
  url: string | undefined,
): Promise<ResumeResult | null> {
  const href = url ?? (typeof location === 'undefined' ? undefined : String(location.href))
  let stored = loaders.options.phantomLink?.store !== undefined
  try {
    stored ||= globalThis.localStorage?.getItem('scope-connect:phantom-link') != null
  } catch {}
  const own = (loaders.options.connectors ?? []).some(
    (c) => (c as { kind?: unknown }).kind === 'phantom-link',
  )
  if (!href?.includes('scPhantomFlow=') && !stored && !own) return null
  const { resumePhantomLink, phantomHostOf } = await import('./phantom-link')
  return resumePhantomLink(phantomHostOf(resume), href)
}
