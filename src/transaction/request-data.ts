import type { TransactionRequestData } from '../../machines/transaction/transaction.types'
import { AppError } from '../errors/app-error'
import type { SendTransactionParameters } from './types'

const hex = (value: bigint | number) => `0x${value.toString(16)}`
const FEE_FIELDS = ['gas', 'gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas'] as const

/**
 * The JSON-safe request the transaction machine carries, from the caller's parameters and the
 * connection (its account and chain). @throws `INVALID_CONFIG` for a request of the wrong shape.
 */
export function toTransactionRequestData(
  params: SendTransactionParameters,
  connection: { namespace: string; accounts: readonly string[]; chainId: string },
): TransactionRequestData {
  const chainId = params.chainId ?? connection.chainId
  const from = connection.accounts[0] ?? ''
  if (connection.namespace === 'solana') {
    if (typeof params.transaction !== 'string' || params.transaction === '') {
      throw new AppError('INVALID_CONFIG', 'A Solana transaction needs `transaction` (base64).')
    }
    return { chainId, from, calls: [], fields: {}, transaction: params.transaction }
  }
  if (params.calls !== undefined && (params.to !== undefined || params.data !== undefined)) {
    throw new AppError('INVALID_CONFIG', 'Give either `calls` or `to`/`data`, not both.')
  }
  const calls = (params.calls ?? [params]).map((call) => ({
    to: call.to ?? null,
    value: call.value === undefined ? null : hex(call.value),
    data: call.data ?? null,
  }))
  if (calls.length === 0) throw new AppError('INVALID_CONFIG', '`calls` is empty.')
  const fields: Record<string, string> = {}
  for (const name of FEE_FIELDS) {
    const value = params[name]
    if (value !== undefined) fields[name] = hex(value)
  }
  if (params.nonce !== undefined) fields.nonce = hex(params.nonce)
  return { chainId, from, calls, fields, transaction: null }
}

/** The `eth_sendTransaction` object of a one-call request (what wallets and the relay carry). */
export function evmTransactionObject(request: TransactionRequestData): Record<string, string> {
  const call = request.calls[0]
  const tx: Record<string, string> = { from: request.from, ...request.fields }
  if (call?.to) tx.to = call.to
  if (call?.value) tx.value = call.value
  if (call?.data) tx.data = call.data
  return tx
}
