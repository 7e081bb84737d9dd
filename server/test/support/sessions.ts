import type { CreateSessionResponse } from 'scope-connect/wire'
import { expect } from 'vitest'
import type { SessionStore } from '../../src/store/types'
import { call } from './http'
import { TEST_APP_KEY } from './server'

/** Creates a session through the real route and checks it answered 201. */
export async function createTestSession(
  baseUrl: string,
  body: Record<string, unknown> = { caip2Chain: 'eip155:1', intent: 'sign' },
  appKey = TEST_APP_KEY,
): Promise<CreateSessionResponse> {
  const answer = await call(baseUrl, '/sessions', { body, headers: { 'x-app-key': appKey } })
  expect(answer.status, JSON.stringify(answer.body)).toBe(201)
  return answer.body as CreateSessionResponse
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

export async function getResult(baseUrl: string, session: CreateSessionResponse) {
  return call(baseUrl, `/sessions/${session.sessionId}/result`, {
    headers: bearer(session.sessionToken),
  })
}

/** The header a wallet sends with every callback: the session's nonce from its universal link. */
export const nonceHeader = (nonce: string) => ({ 'x-session-nonce': nonce })

/**
 * POST a wallet callback as a wallet that got the link would: with `X-Session-Nonce` set to the
 * nonce the store holds for `body.sessionId` (none when the session is unknown).
 */
export async function postCallback(
  baseUrl: string,
  store: Pick<SessionStore, 'getSession'>,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const sessionId = (body as { sessionId?: unknown } | null)?.sessionId
  const record = typeof sessionId === 'string' ? await store.getSession(sessionId) : null
  return call(baseUrl, path, {
    body,
    headers: { ...(record ? nonceHeader(record.nonce) : {}), ...headers },
  })
}
