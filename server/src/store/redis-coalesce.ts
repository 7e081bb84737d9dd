import { primaryConnections, type RedisConnection } from './redis-connection'

/**
 * Returns a function to call before each command: it batches the commands issued during one
 * event-loop turn into one socket write per server. The sockets are corked at the turn's first
 * command and uncorked after the I/O phase (setImmediate), so concurrent polls cost Redis one read
 * and the server one write syscall per turn instead of one each. ioredis's own auto-pipelining
 * batches the same commands, but builds a Pipeline object per batch, which cost more CPU than the
 * writes it saved (docs/benchmarks.md, "Server throughput"). On a Cluster every primary's socket
 * is corked, since which one a command reaches is known only once it is sent.
 */
export function coalesceWrites(connection: RedisConnection): () => void {
  let corked = false
  return () => {
    // Only on a live connection: otherwise commands fail at once (no offline queue).
    if (corked || connection.status !== 'ready') return
    const streams = primaryConnections(connection)
      .filter((node) => node.status === 'ready')
      .map((node) => node.stream)
    for (const stream of streams) stream.cork()
    corked = true
    setImmediate(() => {
      corked = false
      for (const stream of streams) stream.uncork()
    })
  }
}
