import { AppError, isAppError } from '../errors/app-error'

/** Anything that can make an `eth_call`: an EIP-1193 provider, or `{ call({ to, data }) }`. */
export type ContractReader =
  | { request(args: { method: string; params?: unknown }): Promise<unknown> }
  | { call(args: { to: string; data: string }): Promise<string | { data?: string }> }

/**
 * One `eth_call` at `latest` through `reader`; resolves with the return data (0x-hex).
 * @throws AppError `RPC_ERROR` when the call fails or answers something that is not hex.
 */
export async function readContract(
  reader: ContractReader,
  to: string,
  data: string,
): Promise<string> {
  let answer: unknown
  try {
    answer =
      'call' in reader
        ? await reader.call({ to, data })
        : await reader.request({ method: 'eth_call', params: [{ to, data }, 'latest'] })
  } catch (error) {
    if (isAppError(error)) throw error
    throw new AppError('RPC_ERROR', `eth_call to ${to} failed.`, { cause: error })
  }
  const hex =
    typeof answer === 'object' && answer !== null ? (answer as { data?: unknown }).data : answer
  if (typeof hex !== 'string' || !/^0x[0-9a-fA-F]*$/.test(hex)) {
    throw new AppError('RPC_ERROR', `eth_call to ${to} answered something that is not hex.`)
  }
  return hex
}
