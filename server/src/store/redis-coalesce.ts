import type { Redis } from 'ioredis'

/**
 * Returns a function to call before each command: it batches the commands issued during one
 * event-loop turn into one socket write. The socket is corked at the turn's first command and
 * uncorked after the I/O phase (setImmediate), so concurrent polls cost Redis one read and the
 * server one write syscall per turn instead of one each. ioredis's own auto-pipelining batches the
 * same commands, but builds a Pipeline object per batch, which cost more CPU than the writes it
 * saved (docs/benchmarks.md, "Server throughput").
 */
export function coalesceWrites(redis: Redis): () => void {
  let corked = false
  return () => {
    // Only on a live connection: otherwise commands fail at once (no offline queue).
    if (corked || redis.status !== 'ready') return
    const stream = redis.stream
    stream.cork()
    corked = true
    setImmediate(() => {
      corked = false
      stream.uncork()
    })
  }
}
