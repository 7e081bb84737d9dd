import { createActor } from 'xstate'
import { bindClient } from '../../machines/client/client.actors'
import type { ClientActor } from '../../machines/client/client.facade'
import type { GuardReport } from '../../machines/shared/guard'
import type { WalletConnection } from '../connectors/types'
import { ClientLoaders } from './environment'
import { RootHost } from './host'
import type { ClientOptions } from './options'
import { PairedSession } from './paired-session'
import { ClientResume } from './resume'
import { ClientTransactions } from './transactions'

/** The `Client`'s public calls its parts use (a universal-link connector, a paired session). */
export interface ClientFace {
  connect(): Promise<WalletConnection>
  disconnect(): Promise<void>
  cancel(): void
  getConnection(): WalletConnection | null
  signTransaction<T>(transaction: string): Promise<T>
}

/** The parts of a `Client`, one concern each, wired to one root actor. */
export interface ClientParts {
  loaders: ClientLoaders
  host: RootHost
  transactions: ClientTransactions
  paired: PairedSession
  resume: ClientResume
}

/**
 * Builds the parts of `client` and starts its root actor: the loaders make the root's
 * environment, the host runs the root, and on each of its changes the connection store, the
 * view's listeners and the transaction store follow (in that order).
 */
export function assembleClient(
  options: ClientOptions,
  report: GuardReport,
  client: ClientFace,
): ClientParts {
  const parts = {} as ClientParts
  const loaders = new ClientLoaders(options, {
    root: () => parts.host,
    client: () => client,
    linkLoaded: () => parts.resume.persistLink(parts.host.actor),
    resume: () => parts.resume,
  })
  const inspect = loaders.inspector(report)
  const { timeouts } = options
  const create = (snapshot: unknown): ClientActor =>
    createActor(bindClient(loaders.environment()), {
      input: timeouts ? { timeouts } : {},
      ...(snapshot === undefined ? {} : { snapshot: snapshot as never }),
      ...(inspect ? { inspect } : {}),
    })
  const host = new RootHost(create, report, {
    changed: (actor) => {
      parts.resume.rememberConnection(actor)
      host.notify()
      parts.transactions.keep()
    },
    started: (actor) => parts.resume.persistLink(actor),
    replacing: () => parts.resume.stopPersisting(),
    replaced: (actor) => parts.paired.persist(actor),
  })
  const paired = new PairedSession(host, loaders, client)
  const transactions = new ClientTransactions(host, loaders, () => paired.current())
  const resume = new ClientResume(host, loaders, transactions, paired)
  Object.assign(parts, {
    loaders,
    host,
    transactions,
    paired,
    resume,
  })
  host.start()
  return parts
}
