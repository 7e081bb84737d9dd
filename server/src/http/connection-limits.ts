import type { Server } from 'node:http'
import type { Socket } from 'node:net'
import { clientIpKey, trustedProxies } from '../rate-limit'

/** Timeouts and caps of the HTTP server (docs/operations.md). All in milliseconds but the cap. */
export interface HttpLimits {
  /** Time to receive a request's headers, from its first byte (or the connection). */
  headersTimeoutMs: number
  /**
   * Time to receive a whole request, headers and body. A client that trickles its body is cut
   * (408 and the connection closed) within this plus `timeoutCheckIntervalMs`.
   */
  requestTimeoutMs: number
  /** How long an idle keep-alive connection stays open between requests. */
  keepAliveTimeoutMs: number
  /** How often the server looks for requests past their timeouts. */
  timeoutCheckIntervalMs: number
  /**
   * Open connections (HTTP and relay WebSockets alike) per caller IP, IPv6 per /64; one more is
   * closed at once. Connections from a `trustProxy` address are not capped (every client behind
   * the proxy shares its address; cap them at the proxy).
   */
  maxConnectionsPerIp: number
}

/**
 * Defaults: a trickling client is cut within 21 s (under the 30 s the audit asked for), a
 * keep-alive connection outlives the usual 60 s idle timeout of load balancers in front, and one
 * address holds at most 512 connections: above the relay's 200 sockets per IP plus a browser's
 * HTTP connections, far below the file descriptors of a default `ulimit -n 1048576` or of 20,000
 * trickling connections.
 */
export const DEFAULT_HTTP_LIMITS: Readonly<HttpLimits> = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 20_000,
  keepAliveTimeoutMs: 72_000,
  timeoutCheckIntervalMs: 1_000,
  maxConnectionsPerIp: 512,
})

/** Defaults with overrides applied; throws on a value that is not a positive integer. */
export function resolveHttpLimits(overrides: Partial<HttpLimits> = {}): HttpLimits {
  const limits = { ...DEFAULT_HTTP_LIMITS, ...overrides }
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new TypeError(`HTTP limit ${name} must be an integer >= 1, got ${value}`)
    }
  }
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new TypeError('HTTP limit headersTimeoutMs must not exceed requestTimeoutMs')
  }
  return limits
}

/** What `installConnectionCap` reports, for /healthz and tests. */
export interface ConnectionCap {
  /** Connections refused because their address was at the cap, since start. */
  readonly refused: number
  /** Open connections of one address (a raw socket address; keyed as the cap keys it). */
  openFrom(address: string): number
}

/**
 * Closes a new connection at once when its address (IPv6: /64) already holds
 * `maxConnectionsPerIp` open connections. Counted at the TCP level, before any byte is read, so
 * it holds against clients that never finish a request.
 */
export function installConnectionCap(
  server: Server,
  maxConnectionsPerIp: number,
  trustProxy: readonly string[],
): ConnectionCap {
  const open = new Map<string, number>()
  const trusted = trustProxy.length > 0 ? trustedProxies(trustProxy) : () => false
  let refused = 0
  // Before Node's own listener: a refused socket never gets an HTTP parser.
  server.prependListener('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown'
    if (trusted(address)) return
    const key = clientIpKey(address)
    const count = open.get(key) ?? 0
    if (count >= maxConnectionsPerIp) {
      refused++
      socket.destroy()
      return
    }
    open.set(key, count + 1)
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1
      if (left <= 0) open.delete(key)
      else open.set(key, left)
    })
  })
  return {
    get refused() {
      return refused
    },
    openFrom: (address) => open.get(clientIpKey(address)) ?? 0,
  }
}
