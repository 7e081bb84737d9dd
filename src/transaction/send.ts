import type { TransactionRequestData } from '../../machines/transaction/transaction.types'
import type { IWalletConnector } from '../connectors/types'
import { checkedTransactionHash } from '../connectors/wallet-answers'
import { AppError } from '../errors/app-error'
import { evmTransactionObject } from './request-data'

const EVM_HASH = /^0x[0-9a-fA-F]{64}$/
/** How often `wallet_getCallsStatus` is asked for the batch's transaction hash. */
const CALLS_STATUS_POLL_MS = 500

/**
 * Asks a connector's wallet to sign and broadcast `request`; resolves with the hash (EVM) or the
 * signature (Solana). One EVM call: `eth_sendTransaction`. Several: EIP-5792 `wallet_sendCalls`
 * when the wallet's `wallet_getCapabilities` answers, then `wallet_getCallsStatus` until the
 * batch has its transaction. Solana: `solana_signAndSendTransaction` (Wallet Standard
 * `solana:signAndSendTransaction`). Wallet errors are thrown as the wallet threw them.
 */
export async function sendThroughConnector(
  connector: IWalletConnector,
  request: TransactionRequestData,
  signal: AbortSignal,
): Promise<string> {
  if (request.transaction !== null) {
    const answer = await connector.request<{ signature?: unknown }>({
      method: 'solana_signAndSendTransaction',
      params: { transaction: request.transaction },
    })
    return hashOf(answer?.signature, 'solana_signAndSendTransaction')
  }
  if (request.calls.length === 1) {
    const answer = await connector.request<unknown>({
      method: 'eth_sendTransaction',
      params: [evmTransactionObject(request)],
    })
    return hashOf(answer, 'eth_sendTransaction')
  }
  return sendCalls(connector, request, signal)
}

async function sendCalls(
  connector: IWalletConnector,
  request: TransactionRequestData,
  signal: AbortSignal,
): Promise<string> {
  const chainHex = `0x${BigInt(request.chainId.split(':')[1] ?? '0').toString(16)}`
  try {
    await connector.request({
      method: 'wallet_getCapabilities',
      params: [request.from, [chainHex]],
    })
  } catch {
    throw new AppError(
      'WALLET_ERROR',
      'The wallet cannot send several calls at once (no EIP-5792 wallet_getCapabilities): send them one by one.',
    )
  }
  const sent = await connector.request<{ id?: unknown } | string>({
    method: 'wallet_sendCalls',
    params: [
      {
        version: '2.0.0',
        chainId: chainHex,
        from: request.from,
        atomicRequired: false,
        calls: request.calls.map((call) => ({
          ...(call.to ? { to: call.to } : {}),
          ...(call.value ? { value: call.value } : {}),
          ...(call.data ? { data: call.data } : {}),
        })),
      },
    ],
  })
  const id = typeof sent === 'string' ? sent : sent?.id
  if (typeof id !== 'string') throw new AppError('WALLET_ERROR', 'wallet_sendCalls gave no id.')
  while (!signal.aborted) {
    const status = await connector.request<{ receipts?: { transactionHash?: unknown }[] }>({
      method: 'wallet_getCallsStatus',
      params: [id],
    })
    const hashes = (status?.receipts ?? []).map((receipt) => receipt.transactionHash)
    const last = hashes.at(-1)
    if (typeof last === 'string' && EVM_HASH.test(last)) return last
    await new Promise((resolve) => setTimeout(resolve, CALLS_STATUS_POLL_MS))
  }
  throw new AppError('ABORTED', 'Stopped waiting for the batch.')
}

/** The hash of a wallet's answer: 32 bytes of hex (EVM), a 64-byte base58 signature (Solana). */
function hashOf(answer: unknown, method: string): string {
  return checkedTransactionHash(answer, method)
}
