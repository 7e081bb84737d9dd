import type { BalanceOutcome, BalanceReadRequest, ChainInputError, UpstreamError } from './types'

/**
 * A chain's batch of balance reads, answered in request order: each request is planned first (a
 * `ChainInputError` thrown by `plan` is that request's outcome), the planned ones are read
 * together by `read`, which answers how to find each one's outcome, and when `read` throws, the
 * error as `failure` maps it is the outcome of every planned request.
 */
export async function readBatch<P>(
  requests: readonly BalanceReadRequest[],
  plan: (request: BalanceReadRequest) => P,
  read: (planned: P[]) => Promise<(item: P) => BalanceOutcome>,
  failure: (error: unknown) => ChainInputError | UpstreamError,
): Promise<BalanceOutcome[]> {
  const outcomes: (BalanceOutcome | undefined)[] = []
  const planned = requests.map((request, index) => {
    try {
      return plan(request)
    } catch (error) {
      outcomes[index] = { ok: false, error: error as ChainInputError }
      return undefined
    }
  })
  const live = planned.filter((item): item is P => item !== undefined)
  if (live.length === 0) return outcomes as BalanceOutcome[]
  let outcomeOf: (item: P) => BalanceOutcome
  try {
    outcomeOf = await read(live)
  } catch (error) {
    const failed: BalanceOutcome = { ok: false, error: failure(error) }
    outcomeOf = () => failed
  }
  return planned.map((item, index) => outcomes[index] ?? outcomeOf(item as P))
}
