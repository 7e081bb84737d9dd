import { hashMessage, recoverMessageAddress, verifyMessage } from 'viem'
import { describe, expect, it, vi } from 'vitest'
import { waitFor } from 'xstate'
import { sessionSignInput } from '../../machines/sign/sign.actors'
import { createSignActor } from '../../machines/sign/sign.facade'
import { personalSignRequest, utf8ToHex } from '../../machines/sign/sign.requests'
import { AppError } from '../../src/errors'
import type { GenericSessionResult } from '../../src/session/types'
import { buildSignedMessageEnvelope } from '../../src/wire/envelope'
import { ViemTestConnector } from './support/viem-connector'

const SESSION = { sessionId: 'sess_CCCCCCCCCCCCCCCCCCCCCC', nonce: 'nonce_0123456789abcdef' }
const TOKEN = 'tok_sign_SSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSS'
const settled = (actor: ReturnType<typeof createSignActor>) =>
  waitFor(actor, (s) => !s.matches('requesting') && !s.matches('verifying'))

function verifyingClient(outcome: 'ok' | 'not-signed' | 'error' = 'ok') {
  const calls: {
    sessionId: string
    token: string
    body: { walletAddress: string; signature: string; timestamp: number }
  }[] = []
  return {
    calls,
    async verify(
      sessionId: string,
      token: string,
      body: { walletAddress: string; signature: string; timestamp: number },
    ) {
      calls.push({ sessionId, token, body })
      if (outcome === 'error')
        throw new AppError('BACKEND_ERROR', 'HTTP 422 SIGNATURE_INVALID', {
          status: 422,
          backendCode: 'SIGNATURE_INVALID',
        })
      const valid = await verifyMessage({
        address: body.walletAddress as `0x${string}`,
        message: buildSignedMessageEnvelope(
          sessionId,
          SESSION.nonce,
          body.walletAddress,
          body.timestamp,
        ),
        signature: body.signature as `0x${string}`,
      })
      const signed = valid && outcome === 'ok'
      return {
        sessionId,
        status: signed ? 'signed' : 'connected',
        connected: true,
        signed,
        walletAddress: body.walletAddress,
        signature: signed ? body.signature : null,
        txSignature: null,
        errorCode: null,
      } satisfies GenericSessionResult
    },
  }
}

describe('sign machine with a viem-backed connector', () => {
  it('personal_sign without verification: idle → requesting → signed with a real signature', async () => {
    const connector = new ViemTestConnector()
    const actor = createSignActor(connector).start()
    actor.send({
      type: 'SIGN',
      request: personalSignRequest('hello scope', connector.account.address),
    })
    const snapshot = await settled(actor)
    expect(snapshot.value).toBe('signed')
    const signature = snapshot.output?.signature as `0x${string}`
    expect(await recoverMessageAddress({ message: 'hello scope', signature })).toBe(
      connector.account.address,
    )
    expect(snapshot.output?.verification).toBeNull()
  })

  it('signs the session envelope and verifies it on the backend (token from the closure)', async () => {
    const connector = new ViemTestConnector()
    const client = verifyingClient()
    const timestamp = Date.now()
    const input = sessionSignInput(SESSION, connector.account.address, timestamp)
    const actor = createSignActor(connector, {
      input,
      verifier: { client, sessionToken: () => TOKEN },
    }).start()
    const states: string[] = []
    actor.subscribe((s) => states.push(String(s.value)))
    actor.send({ type: 'SIGN' })
    const snapshot = await settled(actor)
    expect(states.filter((v, i) => v !== states[i - 1])).toEqual([
      'requesting',
      'verifying',
      'signed',
    ])
    expect(snapshot.context.verification?.signed).toBe(true)
    expect(client.calls[0]?.token).toBe(TOKEN)
    expect(client.calls[0]?.body.timestamp).toBe(timestamp)
    // The wallet was asked for personal_sign of the UTF-8 envelope, as hex.
    const envelope = buildSignedMessageEnvelope(
      SESSION.sessionId,
      SESSION.nonce,
      connector.account.address,
      timestamp,
    )
    expect(connector.requests[0]).toEqual({
      method: 'personal_sign',
      params: [utf8ToHex(envelope), connector.account.address],
    })
    expect(hashMessage(envelope)).toBe(hashMessage({ raw: utf8ToHex(envelope) }))
    expect(JSON.stringify(actor.getPersistedSnapshot())).not.toContain(TOKEN)
  })

  it('user rejection (4001 as a plain object) ends in rejected, not failed; RETRY signs', async () => {
    const connector = new ViemTestConnector()
    connector.signBehaviour = 'reject'
    const actor = createSignActor(connector, {
      input: { request: personalSignRequest('x', connector.account.address) },
    }).start()
    actor.send({ type: 'SIGN' })
    const rejected = await settled(actor)
    expect(rejected.value).toBe('rejected')
    expect(rejected.context.error?.code).toBe('USER_REJECTED')
    connector.signBehaviour = 'ok'
    actor.send({ type: 'RETRY' })
    expect((await settled(actor)).value).toBe('signed')
  })

  it('other wallet errors end in failed with WALLET_ERROR; RESET returns to idle', async () => {
    const connector = new ViemTestConnector()
    connector.signBehaviour = 'fail'
    const actor = createSignActor(connector).start()
    actor.send({ type: 'SIGN', request: personalSignRequest('x', connector.account.address) })
    const failed = await settled(actor)
    expect(failed.value).toBe('failed')
    expect(failed.context.error).toMatchObject({ code: 'WALLET_ERROR' })
    actor.send({ type: 'RESET' })
    expect(actor.getSnapshot().value).toBe('idle')
    expect(actor.getSnapshot().context.error).toBeNull()
  })

  it('a backend verification error or an unverified result ends in failed', async () => {
    for (const outcome of ['error', 'not-signed'] as const) {
      const connector = new ViemTestConnector()
      const actor = createSignActor(connector, {
        input: sessionSignInput(SESSION, connector.account.address),
        verifier: { client: verifyingClient(outcome), sessionToken: TOKEN },
      }).start()
      actor.send({ type: 'SIGN' })
      const failed = await settled(actor)
      expect(failed.value).toBe('failed')
      expect(failed.context.error?.code).toBe('BACKEND_ERROR')
      expect(failed.context.signature).toMatch(/^0x[0-9a-f]{130}$/)
    }
  })

  it('SIGN without any request is ignored', () => {
    const actor = createSignActor(new ViemTestConnector()).start()
    actor.send({ type: 'SIGN' })
    expect(actor.getSnapshot().value).toBe('idle')
  })

  it('a wallet answering without a signature fails', async () => {
    const connector = new ViemTestConnector()
    vi.spyOn(connector, 'request').mockResolvedValue(null as never)
    const actor = createSignActor(connector).start()
    actor.send({ type: 'SIGN', request: personalSignRequest('x', connector.account.address) })
    const failed = await settled(actor)
    expect(failed.value).toBe('failed')
    expect(failed.context.error?.message).toContain('without a signature')
  })

  it('RESET while the wallet is asked gives up and ignores its late signature', async () => {
    const connector = new ViemTestConnector()
    let answer: (signature: string) => void = () => {}
    const request = vi
      .spyOn(connector, 'request')
      .mockImplementation(() => new Promise((resolve) => (answer = resolve as typeof answer)))
    const actor = createSignActor(connector).start()
    actor.send({ type: 'SIGN', request: personalSignRequest('x', connector.account.address) })
    expect(actor.getSnapshot().value).toBe('requesting')
    actor.send({ type: 'RESET' })
    expect(actor.getSnapshot().value).toBe('idle')
    answer(`0x${'ab'.repeat(65)}`)
    await new Promise((r) => setTimeout(r, 10))
    expect(actor.getSnapshot().value).toBe('idle')
    expect(actor.getSnapshot().context.signature).toBeNull()
    expect(request).toHaveBeenCalledTimes(1)
  })

  it('RESET after a rejection returns to idle without asking the wallet again', async () => {
    const connector = new ViemTestConnector()
    connector.signBehaviour = 'reject'
    const actor = createSignActor(connector, {
      input: { request: personalSignRequest('x', connector.account.address) },
    }).start()
    actor.send({ type: 'SIGN' })
    expect((await settled(actor)).value).toBe('rejected')
    connector.signBehaviour = 'ok'
    actor.send({ type: 'RESET' })
    await new Promise((r) => setTimeout(r, 10))
    expect(actor.getSnapshot().value).toBe('idle')
    expect(actor.getSnapshot().context.error).toBeNull()
    expect(actor.getSnapshot().context.signature).toBeNull()
    expect(connector.requests).toHaveLength(1)
  })

  it('RETRY after a failure asks the wallet again and signs', async () => {
    const connector = new ViemTestConnector()
    connector.signBehaviour = 'fail'
    const actor = createSignActor(connector, {
      input: { request: personalSignRequest('again', connector.account.address) },
    }).start()
    actor.send({ type: 'SIGN' })
    expect((await settled(actor)).value).toBe('failed')
    connector.signBehaviour = 'ok'
    actor.send({ type: 'RETRY' })
    expect(actor.getSnapshot().value).toBe('requesting')
    expect(actor.getSnapshot().context.error).toBeNull()
    const signed = await settled(actor)
    expect(signed.value).toBe('signed')
    expect(connector.requests).toHaveLength(2)
    const signature = signed.output?.signature as `0x${string}`
    expect(await recoverMessageAddress({ message: 'again', signature })).toBe(
      connector.account.address,
    )
  })
})
