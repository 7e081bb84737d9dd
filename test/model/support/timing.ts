/**
 * Runs `work` three times: the results, and the fastest run's CPU time in ms. The fastest, in CPU
 * time: a loaded machine, or a garbage collection of the heap a shared worker holds
 * (`isolate: false`), must not fail a timing.
 */
export function fastestOfThree<T>(work: () => T): { results: [T, T, T]; fastestMs: number } {
  const timed = () => {
    const started = process.cpuUsage()
    const result = work()
    const spent = process.cpuUsage(started)
    return { result, ms: (spent.user + spent.system) / 1000 }
  }
  const [one, two, three] = [timed(), timed(), timed()]
  return {
    results: [one.result, two.result, three.result],
    fastestMs: Math.min(one.ms, two.ms, three.ms),
  }
}
