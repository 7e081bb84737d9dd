import type { SecretRegistry } from '../../../machines/shared/secret-registry'
import type { IWalletConnector, WalletConnection } from '../../connectors/types'
import { AppError, isAppError } from '../../errors/app-error'
import { createBrowserPhantomLinkStore } from '../../phantom-link/browser-store'
import {
  PhantomLinkConnector,
  type PhantomLinkResumeResult,
} from '../../phantom-link/face/connector'
import { phantomLinkOptions } from '../../phantom-link/options'
import { getWalletInfo, walletIdForConnectorId } from '../../registry'
import type { TransactionHandle } from '../../transaction/types'
import type { ClientOptions, ResumeResult } from '../client'
import type { ClientResume } from '../resume'

/** What the `Client` lends the Phantom-link chunk. */
export interface PhantomLinkHost {
  options: ClientOptions
  /** The built-in connectors, one per wallet. */
  kept: Map<string, IWalletConnector>
  secrets: SecretRegistry
  connector(): IWalletConnector | null
  /** A root flow is pending. */
  pending(): boolean
  waitFlow(): Promise<void>
  connection(): WalletConnection | null
  reconnect(walletId: string, connectorId: string): Promise<void>
  watchSent(chainId: string, hash: string): Promise<TransactionHandle>
}

/** What the Phantom-link chunk borrows of the client (through its resume part). */
export function phantomHostOf(resume: ClientResume): PhantomLinkHost {
  const { host, loaders, transactions } = resume
  return {
    options: loaders.options,
    kept: loaders.phantomLinks,
    secrets: loaders.secrets,
    connector: () => loaders.connector,
    pending: () => host.view().pending !== null,
    waitFlow: () => host.waitCurrent().then(() => {}),
    connection: () => host.connection(),
    reconnect: (walletId, connectorId) =>
      host.run({ type: 'RECONNECT', walletId, namespace: 'solana', connectorId }).then(() => {}),
    watchSent: (chainId, hash) => transactions.watch(chainId, hash),
  }
}

/** A Phantom-link connector, as the `Client` sees it. */
type PhantomLinkLike = IWalletConnector & {
  readonly kind: 'phantom-link'
  resume(options?: { url?: string }): Promise<PhantomLinkResumeResult>
}

function isPhantomLink(connector: IWalletConnector): connector is PhantomLinkLike {
  return (connector as { kind?: unknown }).kind === 'phantom-link'
}

/** The Phantom-link connector of `walletId`: the app's own (`connectors`), else the built-in one (kept). */
export function phantomLinkConnector(host: PhantomLinkHost, walletId: string): PhantomLinkLike {
  const own = host.options.connectors?.find((c) => c.id === walletId && isPhantomLink(c))
  if (own) return own as PhantomLinkLike
  const kept = host.kept.get(walletId)
  if (kept) return kept as PhantomLinkLike
  const settings = host.options.phantomLink ?? {}
  const connector = new PhantomLinkConnector({
    ...phantomLinkOptions(getWalletInfo(walletId), {
      solanaChainId: host.options.solanaChainId,
      phantomLink: { ...settings, store: settings.store ?? createBrowserPhantomLinkStore() },
    }),
    secrets: host.secrets,
    ...(host.options.inspect === undefined ? {} : { inspect: host.options.inspect }),
  })
  host.kept.set(walletId, connector)
  return connector
}

/**
 * Phantom's deeplinks after the wallet sent the user back (or a reload while connected): where the
 * flow stands, the root connected to the wallet whenever it still holds a session.
 */
export async function resumePhantomLink(
  host: PhantomLinkHost,
  href: string | undefined,
): Promise<ResumeResult | null> {
  const none = async () => null
  const answered = href?.includes('scPhantomFlow=') ?? false
  const own = (host.options.connectors ?? []).filter(isPhantomLink)
  let connector: PhantomLinkLike | null = null
  let result: PhantomLinkResumeResult = { status: 'none' }
  for (const candidate of own) {
    result = await candidate.resume(href === undefined ? {} : { url: href })
    connector = candidate
    if (result.status !== 'none' && result.status !== 'refused') break
  }
  if (connector === null || result.status === 'none') {
    const store = host.options.phantomLink?.store ?? createBrowserPhantomLinkStore()
    const walletId = store.load()?.snapshot.context.walletId
    if (walletId !== undefined) {
      connector = phantomLinkConnector(host, walletId)
      result = await connector.resume(href === undefined ? {} : { url: href })
    }
  }
  if (result.status === 'none')
    return answered
      ? {
          status: 'refused',
          error: new AppError(
            'WALLET_ERROR',
            'No request of this page is waiting for a wallet answer.',
          ),
          wait: none,
        }
      : null
  if (result.status === 'discarded')
    return { status: 'discarded', reason: result.reason, wait: none }
  const wallet = connector as PhantomLinkLike
  // This page's own flow was waiting on the wallet (no navigation): it settles with the answer.
  if (host.connector() === wallet && host.pending()) await host.waitFlow().catch(() => {})
  // The wallet still holds a session (also after a refused or failed answer): the root connects.
  if (wallet.getAccounts().length > 0 && host.connection()?.connectorId !== wallet.id) {
    try {
      await host.reconnect(walletIdForConnectorId(wallet.id) ?? wallet.id, wallet.id)
    } catch (error) {
      const cause = isAppError(error) ? error : new AppError('WALLET_ERROR', String(error))
      return { status: 'failed', error: cause, wait: none }
    }
  }
  if (result.status === 'pending')
    return { status: 'awaitingWallet', connection: host.connection(), wait: none }
  if (result.status === 'failed' || result.status === 'refused')
    return { status: result.status, error: result.error, wait: none }
  const connection = host.connection()
  const wait = async () => host.connection()
  if (result.status === 'connected') return { status: 'connected', connection, wait }
  const signature = result.signature
  const signed = async () => signature
  if (result.method === 'signMessage')
    return { status: 'signed', connection, signature: signed, wait }
  let sent: Promise<TransactionHandle> | undefined
  const transaction = () => {
    sent ??= host.watchSent(connection?.chainId ?? '', signature)
    return sent
  }
  return { status: 'signed', connection, signature: signed, wait, transaction }
}
