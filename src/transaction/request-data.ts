import type { TransactionRequestData } from '../../machines/transaction/transaction.types'
import { AppError } from '../errors/app-error'
import { parseParameters } from '../wire/parse-parameters'
import { SendTransactionParametersSchema, TransactionConnectionSchema } from './parameters'
import type { SendTransactionParameters } from './types'

/** A checked quantity (a non-negative bigint or safe integer) as a JSON-RPC quantity. */
const hex = (value: bigint | number) => `0x${value.toString(16)}`
const FEE_FIELDS = ['gas', 'gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas'] as const

/**
 * The JSON-safe request the transaction machine carries, from the caller's parameters and the
 * connection (its account and chain). The parameters are checked first
 * (`SendTransactionParametersSchema`). @throws `INVALID_CONFIG` for a request of the wrong shape,
 * naming the field (`details`): `value: "1000"`, `-5n`, `1.5`, a `to` that is not an address,
 * `data` that is not hex, a `nonce` that is not a safe non-negative integer.
 */
export function toTransactionRequestData(
  input: SendTransactionParameters,
  connection: { namespace: string; accounts: readonly string[]; chainId: string },
): TransactionRequestData {
  const params = parseParameters(
    SendTransactionParametersSchema,
    input,
    'sendTransaction parameters',
  )
  parseParameters(TransactionConnectionSchema, connection, 'connection')
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

/**
 * Refuses a request for another chain than the connection's (a wallet connected in this browser,
 * or over a universal link, sends on its own chain: the transaction would land there while
 * `wait()` watched the other). Call `switchChain(chainId)` first. A paired relay session carries
 * the chain with each request and does not need this. @throws `INVALID_CONFIG` (field `chainId`).
 */
export function requireConnectionChain(
  request: TransactionRequestData,
  connection: { chainId: string },
): void {
  if (request.chainId === connection.chainId) return
  const reason = `is ${request.chainId} but the wallet is on ${connection.chainId}: call switchChain('${request.chainId}') first`
  throw new AppError('INVALID_CONFIG', `Invalid sendTransaction parameters.chainId: ${reason}.`, {
    details: [{ field: 'sendTransaction parameters.chainId', reason }],
  })
}
