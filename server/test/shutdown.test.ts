import { BalanceResponseSchema } from 'scope-connect/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createChainRegistry } from '../src/chains'
import { freePort } from '../src/child-process'
import { startServer } from '../src/server'
import { call } from './support/http'
import { SOLANA_DEVNET, TEST_APP_KEY, TEST_PROJECT } from './support/server'
import { type SolanaRpcDouble, startSolanaRpcDouble } from './support/solana-rpc-double'

const OWNER = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'
const UPSTREAM_DELAY_MS = 600

let rpc: SolanaRpcDouble
beforeAll(async () => {
  rpc = await startSolanaRpcDouble({ balances: { [OWNER]: 1_500_000_000n } })
})
afterAll(() => rpc?.close())

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A server whose Solana reads reach the test double only after `delayMs`: slow in flight. */
function startSlowServer(delayMs: number, shutdownGraceMs?: number) {
  const networks = [{ chainId: SOLANA_DEVNET, rpcUrl: rpc.url }]
  const slowFetch: typeof fetch = async (input, init) => {
    await sleep(delayMs)
    return fetch(input, init)
  }
  return startServer({
    port: 0,
    projects: { projects: [{ ...TEST_PROJECT, networks }] },
    chains: createChainRegistry(networks, { timeoutMs: 10_000, fetch: slowFetch }),
    logger: false,
    ...(shutdownGraceMs === undefined ? {} : { shutdownGraceMs }),
  })
}

const readBalance = (baseUrl: string) =>
  call(
    baseUrl,
    `/balances?${new URLSearchParams({ chainId: SOLANA_DEVNET, tokenAddress: 'native', account: OWNER })}`,
    { headers: { 'x-app-key': TEST_APP_KEY } },
  )

describe('graceful shutdown', () => {
  it('finishes a request in flight on a keep-alive connection, then refuses new ones', async () => {
    const server = await startSlowServer(UPSTREAM_DELAY_MS)
    const inFlight = readBalance(server.url)
    await sleep(UPSTREAM_DELAY_MS / 3)

    const closeStartedAt = Date.now()
    const [answer] = await Promise.all([inFlight, server.close()])

    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expect(BalanceResponseSchema.parse(answer.body).raw).toBe('1500000000')
    // close() waited for the read (about two thirds of the upstream delay were still to go).
    expect(Date.now() - closeStartedAt).toBeGreaterThanOrEqual(UPSTREAM_DELAY_MS / 2)
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow()
  })

  it('cuts requests still running when the grace period ends', async () => {
    const server = await startSlowServer(5_000, 200)
    const inFlight = readBalance(server.url)
    const outcome = inFlight.then(
      () => 'answered',
      () => 'cut',
    )
    await sleep(100)
    const startedAt = Date.now()
    await server.close()
    expect(Date.now() - startedAt).toBeLessThan(2_000)
    expect(await outcome).toBe('cut')
  })

  it('error: a taken port rejects with EADDRINUSE and stops what the app started (its metrics listener)', async () => {
    const running = await startSlowServer(0)
    const metricsPort = await freePort()
    const taken = startServer({
      port: Number(new URL(running.url).port),
      projects: { projects: [TEST_PROJECT] },
      logger: false,
      metrics: { port: metricsPort },
    })
    await expect(taken).rejects.toMatchObject({ code: 'EADDRINUSE' })
    await expect(fetch(`http://127.0.0.1:${metricsPort}/metrics`)).rejects.toThrow()
    // Twin: on a free port the same options serve the metrics listener.
    const free = await startServer({
      port: 0,
      projects: { projects: [TEST_PROJECT] },
      logger: false,
      metrics: { port: metricsPort },
    })
    expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).status).toBe(200)
    await Promise.all([free.close(), running.close()])
  })
})
