import websocket from '@fastify/websocket'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { API_PREFIX, ROUTES } from 'scope-connect/wire'
import { appKeyOf, requireProject } from '../auth/app-key'
import type { AppContext } from '../context'
import { ApiError } from '../errors'
import { enforceAppKeyLimits } from '../http/rate-limit'
import { clientIpKey, resolveClientIp } from '../rate-limit'
import type { ConnectionGrant } from '../relay/connection'
import { hostEndpoints, publicEndpoints, type RelayEndpoints } from '../relay/endpoints'
import { type RelayLimits, resolveRelayLimits } from '../relay/limits'
import type { RelayMailbox } from '../relay/mailbox'
import { createMemoryMailbox } from '../relay/mailbox-memory'
import { createRelayServer, type RelayServer } from '../relay/relay'
import {
  createRelayTokenSigner,
  generateRelaySigningKey,
  type RelayTokenClaims,
  RelayTokenError,
} from '../relay/token'

export interface RelayOptions {
  /**
   * Ed25519 seeds (32 bytes each) that sign and verify relay tokens: the first signs, all verify.
   * Default: one generated at start (a warning is logged): tokens then die with the process, and
   * instances behind one load balancer cannot accept each other's tokens.
   */
  signingKeys?: Uint8Array[]
  /** The server's public base URL (`https://api.example.com`); default: each request's Host. */
  publicUrl?: string
  /** Default: an in-process mailbox, closed with the app. `createRedisMailbox` for scale-out. */
  mailbox?: RelayMailbox
  /** Relay token lifetime; default 3600. */
  tokenTtlSeconds?: number
  limits?: Partial<RelayLimits>
}

export const DEFAULT_RELAY_TOKEN_TTL_SECONDS = 3600
/** What a 429 on a socket cap tells the client to wait: sockets free up as others close. */
const SOCKET_CAP_RETRY_AFTER_S = 10

/**
 * `POST /relay/token` (a grant per app key, limited like `/config`) and `GET /relay`, the
 * WebSocket of the relay protocol (SPEC 5). The upgrade is refused over HTTP, before any socket
 * exists: 401 INVALID_RELAY_TOKEN for a missing, malformed, forged or expired token, 429 when the
 * caller's IP holds `maxSocketsPerIp` relay sockets here. A plain GET is 426 UPGRADE_REQUIRED.
 * In a scope of their own: @fastify/websocket adds an `onRequest` and an `onResponse` hook to
 * every route of its scope (and the second makes Fastify watch every answer's end), which the
 * poll hot path would otherwise pay on each request. Upgrades to the other routes are refused by
 * `installUpgradeGuard`.
 */
export async function registerRelayRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  options: RelayOptions = {},
): Promise<RelayServer> {
  let relay: RelayServer | undefined
  await app.register(async (scope) => {
    relay = await relayScope(scope, ctx, options)
  })
  return relay!
}

async function relayScope(
  app: FastifyInstance,
  ctx: AppContext,
  options: RelayOptions,
): Promise<RelayServer> {
  const limits = resolveRelayLimits(options.limits)
  const fixedEndpoints = options.publicUrl ? publicEndpoints(options.publicUrl) : undefined
  const endpoints = (request: FastifyRequest): RelayEndpoints =>
    fixedEndpoints ?? hostEndpoints(request.headers.host)
  let seeds = options.signingKeys
  if (!seeds || seeds.length === 0) {
    seeds = [generateRelaySigningKey()]
    app.log.warn(
      'no relay signing key (--relay-key / RELAY_SIGNING_KEY): generated one for this process; ' +
        'its tokens die with it, and instances behind one load balancer must share a key',
    )
  }
  const signer = createRelayTokenSigner({
    seeds,
    ttlSeconds: options.tokenTtlSeconds ?? DEFAULT_RELAY_TOKEN_TTL_SECONDS,
    now: ctx.now,
  })
  const mailbox = options.mailbox ?? createMemoryMailbox({ now: ctx.now })
  const relay = createRelayServer({ mailbox, limits, now: ctx.now, log: app.log })

  await app.register(websocket, {
    options: { maxPayload: limits.maxFrameBytes, clientTracking: false },
    // Part of app.close(): every relay socket gets 1001 before the HTTP server stops.
    preClose: async () => {
      await relay.shutdown()
      app.websocketServer.close()
    },
    // Socket-level errors (a frame over maxPayload, invalid UTF-8, a reset): ws has already sent
    // the close code RFC 6455 asks for, so cutting the socket here would lose it.
    errorHandler: (error, _socket, request) => {
      request.log.debug({ err: error }, 'relay socket error')
    },
  })
  if (!options.mailbox) app.addHook('onClose', () => mailbox.close())

  app.post(API_PREFIX + ROUTES.relayToken, async (request, reply) => {
    const project = requireProject(request, ctx.projects)
    await enforceAppKeyLimits(ctx, request, reply, project, appKeyOf(request)!)
    reply.header('cache-control', 'no-store')
    return signer.issue({ ...endpoints(request), app: appKeyOf(request)! })
  })

  const grants = new WeakMap<FastifyRequest, ConnectionGrant>()
  app.route({
    method: 'GET',
    url: API_PREFIX + ROUTES.relay,
    preValidation: async (request) => {
      if (!request.ws) return
      const { token } = request.query as { token?: unknown }
      let claims: RelayTokenClaims
      try {
        claims = signer.verify(token, endpoints(request))
      } catch (error) {
        if (error instanceof RelayTokenError)
          throw new ApiError('INVALID_RELAY_TOKEN', error.message)
        throw error
      }
      const ip = resolveClientIp(request.socket.remoteAddress, request.headers, ctx.trustProxy)
      const source = clientIpKey(ip)
      const release = relay.reserve(source)
      if (!release) {
        throw new ApiError('RATE_LIMITED', 'too many open relay sockets from this address', {
          headers: { 'retry-after': String(SOCKET_CAP_RETRY_AFTER_S) },
        })
      }
      // The TCP socket closes in every case (refused upgrade, closed or cut WebSocket).
      request.socket.once('close', release)
      grants.set(request, {
        expiresAt: claims.exp * 1000,
        sub: claims.sub,
        // A token from before quotas has no app key: such tokens share one bucket for their hour.
        app: claims.app ?? '-',
        source: source.replace(/\s/g, '_'), // the Redis accounting splits on spaces
      })
    },
    handler: async () => {
      throw new ApiError('UPGRADE_REQUIRED', 'the relay is a WebSocket: send Upgrade: websocket', {
        headers: { upgrade: 'websocket' },
      })
    },
    wsHandler: (socket, request) => {
      const grant = grants.get(request)
      if (grant) relay.accept(socket, grant)
      else socket.terminate()
    },
  })
  return relay
}
