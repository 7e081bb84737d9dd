import type { InspectionEvent } from 'xstate'
import { type GuardReport, guarded, guardStore } from '../../machines/shared/guard'
import type { TransactionStore } from '../transaction/store'
import type { ClientOptions } from './client'

/** The transaction store and its history (when it keeps one), each behind guards. */
function guardTransactionStore(store: TransactionStore, report: GuardReport): TransactionStore {
  const guardedStore = guardStore(store, 'transactions.store', report)
  const { history } = store
  return history
    ? { ...guardedStore, history: guardStore(history, 'transactions.store.history', report) }
    : guardedStore
}

/**
 * `options` with the app's stores and inspector behind guards (`machines/shared/guard`): what they
 * throw or reject is reported once through the logger and dropped, so the root actor, `resume()`
 * and `disconnect()` never see it.
 */
export function guardClientOptions(options: ClientOptions, report: GuardReport): ClientOptions {
  const { connectionStore, universalLink, pairing, transactions, inspect } = options
  return {
    ...options,
    ...(connectionStore
      ? { connectionStore: guardStore(connectionStore, 'connectionStore', report) }
      : {}),
    ...(universalLink?.store
      ? {
          universalLink: {
            ...universalLink,
            store: guardStore(universalLink.store, 'universalLink.store', report),
          },
        }
      : {}),
    ...(pairing?.store
      ? { pairing: { ...pairing, store: guardStore(pairing.store, 'pairing.store', report) } }
      : {}),
    ...(transactions?.store
      ? {
          transactions: {
            ...transactions,
            store: guardTransactionStore(transactions.store, report),
          },
        }
      : {}),
    ...(inspect === undefined
      ? {}
      : {
          inspect: (event: InspectionEvent) =>
            guarded(
              report,
              'the inspector',
              () => (typeof inspect === 'function' ? inspect(event) : inspect.next?.(event)),
              undefined,
            ),
        }),
  }
}
