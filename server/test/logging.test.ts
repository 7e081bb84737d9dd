import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { sessionLogId } from '../src/logging'
import { call } from './support/http'
import { startTestServer } from './support/server'
import { bearer, createTestSession, nonceHeader } from './support/sessions'
import { evmWallet } from './support/wallets'

describe('logging', () => {
  it('a full session flow at trace level never logs the session token, the signature, the nonce or the session id', async () => {
    const lines: string[] = []
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk))
        done()
      },
    })
    const server = await startTestServer({ logger: { level: 'trace', destination } })
    try {
      const wallet = evmWallet()
      const session = await createTestSession(server.baseUrl)
      await call(server.baseUrl, '/callback/connect', {
        headers: nonceHeader(session.nonce),
        body: {
          sessionId: session.sessionId,
          walletSlug: 'metamask',
          caip2Chain: 'eip155:1',
          walletAddress: wallet.address,
        },
      })
      const timestamp = Date.now()
      const signature = await wallet.signEnvelope(session.sessionId, session.nonce, timestamp)
      const signed = await call(server.baseUrl, '/callback/sign', {
        headers: nonceHeader(session.nonce),
        body: { sessionId: session.sessionId, signature, timestamp },
      })
      expect(signed.status).toBe(204)
      const result = await call(server.baseUrl, `/sessions/${session.sessionId}/result`, {
        headers: bearer(session.sessionToken),
      })
      expect(result.status).toBe(200)
      // A refused call carrying the token in a header, and a bad signature, logged as errors.
      await call(server.baseUrl, `/sessions/${session.sessionId}/verify`, {
        body: { walletAddress: wallet.address, signature, timestamp },
        headers: bearer(session.sessionToken),
      })

      const log = lines.join('')
      // The log is really captured, and names the session by a short hash only.
      expect(log).toContain(`/sessions/${sessionLogId(session.sessionId)}/result`)
      expect(log).toContain('/callback/sign')
      expect(log).not.toContain(session.sessionId)
      expect(log).not.toContain(session.nonce)
      expect(log).not.toContain(session.sessionToken)
      expect(log).not.toContain(signature)
      expect(log).not.toContain(signature.slice(2, 40))
    } finally {
      await server.close()
    }
  })
})
