import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { call } from './support/http'
import { SOLANA_DEVNET, startTestServer, TEST_PROJECT, type TestServer } from './support/server'
import { type SolanaRpcDouble, startSolanaRpcDouble } from './support/solana-rpc-double'

// GET /transactions on Solana against the JSON-RPC TEST DOUBLE (no validator runs here): a
// signature's status from `getSignatureStatuses`, the head from `getSlot`.

const SIGNATURE = '5'.repeat(88)
let solana: SolanaRpcDouble
let server: TestServer

beforeAll(async () => {
  solana = await startSolanaRpcDouble({ slot: 1_000 })
  server = await startTestServer({
    projects: {
      projects: [{ ...TEST_PROJECT, networks: [{ chainId: SOLANA_DEVNET, rpcUrl: solana.url }] }],
    },
    transactions: { blockPollMs: 50 },
  })
})
afterAll(async () => {
  await server?.close()
  await solana?.close()
})

const status = (etag?: string, waitMs?: number) =>
  call(
    server.baseUrl,
    `/transactions?${new URLSearchParams({
      chainId: SOLANA_DEVNET,
      hash: SIGNATURE,
      ...(waitMs ? { waitMs: String(waitMs) } : {}),
    })}`,
    { headers: { 'x-app-key': 'test-app-key', ...(etag ? { 'if-none-match': etag } : {}) } },
  )

describe('GET /transactions on Solana (test double)', () => {
  it('unknown → pending (processed) → confirmed with its slot and confirmations → reverted on err', async () => {
    expect((await status()).body).toMatchObject({ status: 'unknown' })
    solana.setSignatureStatus(SIGNATURE, {
      slot: 1_000,
      confirmationStatus: 'processed',
      err: null,
    })
    expect((await status()).body).toMatchObject({ status: 'pending' })
    solana.setSignatureStatus(SIGNATURE, {
      slot: 1_000,
      confirmationStatus: 'confirmed',
      err: null,
    })
    solana.setSlot(1_002)
    expect((await status()).body).toEqual({
      chainId: SOLANA_DEVNET,
      hash: SIGNATURE,
      status: 'confirmed',
      blockNumber: '1000',
      confirmations: 3,
    })
    solana.setSignatureStatus(SIGNATURE, {
      slot: 1_000,
      confirmationStatus: 'confirmed',
      err: { InstructionError: [0, 'Custom'] },
    })
    expect((await status()).body).toMatchObject({
      status: 'reverted',
      revertReason: '{"InstructionError":[0,"Custom"]}',
    })
  })

  it('a long-poll is woken by a new slot', async () => {
    solana.setSignatureStatus(SIGNATURE, {
      slot: 1_000,
      confirmationStatus: 'confirmed',
      err: null,
    })
    const first = await status()
    const waiting = status(first.headers.get('etag')!, 5_000)
    await new Promise((resolve) => setTimeout(resolve, 200))
    solana.setSlot(1_010)
    const answer = await waiting
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({ status: 'confirmed', confirmations: 11 })
  })
})
