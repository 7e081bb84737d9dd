import type { CreateSessionResponse } from 'scope-connect/wire'
import { expect } from 'vitest'
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
