import type { ClientView } from '../../../machines/client/client.view'
import { checkArgument } from '../arguments'

/** The fields compared as they are; the error by its code; links by whether there is one. */
const EXACT = [
  'status',
  'isConnected',
  'isBusy',
  'canConnect',
  'canRetry',
  'canCancel',
  'canSign',
  'pending',
  'walletId',
  'connectionKind',
  'address',
  'chainId',
] as const satisfies readonly (keyof ClientView)[]

/**
 * How `actual` differs from the `expected` view of a path (empty: the same): every flag, the
 * status, the wallet and the account as they are; the error by its `code` (messages are the
 * wallet's words); `accounts` item by item; `walletUrl` and `pairingUri` by whether there is one
 * (their values are fresh per flow).
 *
 * @throws AppError `INVALID_CONFIG` when either is not a view (a compared field of the wrong type).
 */
export function viewDifferences(actual: ClientView, expected: ClientView): string[] {
  checkArgument('view', actual, 'viewDifferences actual')
  checkArgument('view', expected, 'viewDifferences expected')
  const differences: string[] = []
  const show = (value: unknown) => JSON.stringify(value)
  for (const key of EXACT)
    if (actual[key] !== expected[key])
      differences.push(`${key}: ${show(actual[key])}, expected ${show(expected[key])}`)
  if ((actual.error?.code ?? null) !== (expected.error?.code ?? null))
    differences.push(
      `error: ${show(actual.error?.code ?? null)}, expected ${show(expected.error?.code ?? null)}`,
    )
  if (show(actual.accounts) !== show(expected.accounts))
    differences.push(`accounts: ${show(actual.accounts)}, expected ${show(expected.accounts)}`)
  for (const key of ['walletUrl', 'pairingUri'] as const)
    if ((actual[key] === null) !== (expected[key] === null))
      differences.push(
        `${key}: ${actual[key] === null ? 'none' : 'one'}, expected ${expected[key] === null ? 'none' : 'one'}`,
      )
  return differences
}

/**
 * True when `actual` shows what `expected` does (see `viewDifferences`).
 *
 * @throws AppError `INVALID_CONFIG` when either is not a view.
 */
export function sameClientView(actual: ClientView, expected: ClientView): boolean {
  checkArgument('view', actual, 'sameClientView actual')
  checkArgument('view', expected, 'sameClientView expected')
  return viewDifferences(actual, expected).length === 0
}
