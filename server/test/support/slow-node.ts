/**
 * A node that takes `ms` to answer, as a socket does: the caller's abort (its timeout) ends the wait
 * at once with the abort's reason. Put in front of a real node's fetch to test upstream timeouts.
 */
export function slowNode(ms: number, signal: AbortSignal | null | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => {
      clearTimeout(timer)
      reject(signal.reason)
    })
  })
}
