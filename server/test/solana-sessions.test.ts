import { SessionResultSchema } from 'scope-connect/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryStore } from '../src/store/memory'
import { call, codeOf } from './support/http'
import { SOLANA_DEVNET, startTestServer, type TestServer } from './support/server'
import { bearer, createTestSession, getResult, postCallback } from './support/sessions'
import { solanaWallet } from './support/wallets'

let server: TestServer
const store = createMemoryStore()
beforeAll(async () => {
  server = await startTestServer({ store })
})
afterAll(async () => {
  await server.close()
  await store.close()
})

const post = (path: string, body: unknown) => postCallback(server.baseUrl, store, path, body)

async function connectedSession(wallet = solanaWallet()) {
  const session = await createTestSession(server.baseUrl, {
    caip2Chain: SOLANA_DEVNET,
    intent: 'sign',
  })
  const answer = await post('/callback/connect', {
    sessionId: session.sessionId,
    walletSlug: 'phantom',
    caip2Chain: SOLANA_DEVNET,
    walletAddress: wallet.address,
  })
  expect(answer.status).toBe(204)
  return { session, wallet }
}

describe('Solana sessions (ed25519 over the UTF-8 envelope, base58)', () => {
  it('a real ed25519 signature with the connected publicKey signs the session', async () => {
    const { session, wallet } = await connectedSession()
    const timestamp = Date.now()
    const signature = wallet.signEnvelope(session.sessionId, session.nonce, timestamp)
    const answer = await post('/callback/sign', {
      sessionId: session.sessionId,
      signature,
      timestamp,
      publicKey: wallet.address,
    })
    expect(answer.status, JSON.stringify(answer.body)).toBe(204)
    expect(
      SessionResultSchema.parse((await getResult(server.baseUrl, session)).body),
    ).toMatchObject({
      status: 'signed',
      walletAddress: wallet.address,
      signature,
    })
  })

  it('publicKey other than the connected address is 422 SIGNATURE_INVALID', async () => {
    const { session } = await connectedSession()
    const impostor = solanaWallet()
    const timestamp = Date.now()
    const answer = await post('/callback/sign', {
      sessionId: session.sessionId,
      // A valid signature by the impostor over an envelope naming the impostor.
      signature: impostor.signEnvelope(session.sessionId, session.nonce, timestamp),
      timestamp,
      publicKey: impostor.address,
    })
    expect([answer.status, codeOf(answer)]).toEqual([422, 'SIGNATURE_INVALID'])
  })

  it('a signature by another key over the right envelope is refused', async () => {
    const { session, wallet } = await connectedSession()
    const timestamp = Date.now()
    const answer = await post('/callback/sign', {
      sessionId: session.sessionId,
      signature: solanaWallet().signEnvelope(
        session.sessionId,
        session.nonce,
        timestamp,
        wallet.address,
      ),
      timestamp,
      publicKey: wallet.address,
    })
    expect([answer.status, codeOf(answer)]).toEqual([422, 'SIGNATURE_INVALID'])
  })

  it('publicKey is required on Solana (422 with the field)', async () => {
    const { session, wallet } = await connectedSession()
    const timestamp = Date.now()
    const answer = await post('/callback/sign', {
      sessionId: session.sessionId,
      signature: wallet.signEnvelope(session.sessionId, session.nonce, timestamp),
      timestamp,
    })
    expect([answer.status, codeOf(answer)]).toEqual([422, 'VALIDATION_FAILED'])
    expect(JSON.stringify(answer.body)).toContain('publicKey')
  })

  it('refuses an EVM address on a Solana session', async () => {
    const session = await createTestSession(server.baseUrl, { caip2Chain: SOLANA_DEVNET })
    const answer = await post('/callback/connect', {
      sessionId: session.sessionId,
      walletSlug: 'phantom',
      caip2Chain: SOLANA_DEVNET,
      walletAddress: `0x${'ab'.repeat(20)}`,
    })
    expect([answer.status, codeOf(answer)]).toEqual([422, 'VALIDATION_FAILED'])
  })

  it('verify works on Solana too, the address being the signing key', async () => {
    const wallet = solanaWallet()
    const session = await createTestSession(server.baseUrl, { caip2Chain: SOLANA_DEVNET })
    const timestamp = Date.now()
    const answer = await call(server.baseUrl, `/sessions/${session.sessionId}/verify`, {
      body: {
        walletAddress: wallet.address,
        signature: wallet.signEnvelope(session.sessionId, session.nonce, timestamp),
        timestamp,
      },
      headers: bearer(session.sessionToken),
    })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expect(SessionResultSchema.parse(answer.body).status).toBe('signed')
  })
})
