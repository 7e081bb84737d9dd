import { startTestBackend } from '@scope-connect/server/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '../../src/client'
import {
  createBackendDouble,
  TEST_APP_KEY,
  TEST_BALANCE_RAW,
  TEST_BASE_URL,
} from '../../src/testing'
import {
  API_PREFIX,
  BalancesResponseSchema,
  ROUTES,
  TransactionStatusResponseSchema,
} from '../../src/wire'

// Issue 31, item 9: the backend test double answers POST /balances (the batch `client.getBalances`
// sends, which the docs recommend) and GET /transactions as the real backend does: the answers
// parse with the wire schemas the real routes answer with (server/src/routes/balances-batch.ts,
// transactions.ts), and a malformed batch or query gets the same status and codes from both —
// checked side by side with the real server (startTestBackend). Before, the double answered POST
// /balances with 404 and `getBalances` rejected in every test on it.

let real: Awaited<ReturnType<typeof startTestBackend>>
beforeAll(async () => {
  real = await startTestBackend()
}, 60_000)
afterAll(() => real?.close())

const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

/** POST /balances with `body` on the double and on the real server: status and JSON of each. */
async function bothBatches(body: unknown) {
  const double = createBackendDouble()
  const post = (fetchImpl: typeof fetch, baseUrl: string, appKey: string) =>
    fetchImpl(`${baseUrl}${API_PREFIX}${ROUTES.balances}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-key': appKey },
      body: JSON.stringify(body),
    }).then(async (response) => ({ status: response.status, body: await response.json() }))
  return {
    double: await post(double.fetch, TEST_BASE_URL, TEST_APP_KEY),
    real: await post(fetch, real.baseUrl, real.appKey),
  }
}

describe('the backend double answers POST /balances and GET /transactions as the real backend', () => {
  it('client.getBalances on the double: one balance per query, in order, each the double’s', async () => {
    const double = createBackendDouble()
    const client = new Client({
      baseUrl: TEST_BASE_URL,
      appKey: TEST_APP_KEY,
      fetchImpl: double.fetch,
    })
    const queries = [
      { chainId: 'eip155:1', tokenAddress: 'native', account: ACCOUNT },
      { chainId: 'eip155:10', tokenAddress: 'native', account: ACCOUNT },
    ] as const
    const results = await client.getBalances(queries)
    expect(results.map((r) => r.status)).toEqual(['success', 'success'])
    expect(results.map((r) => (r.status === 'success' ? r.balance.raw : null))).toEqual([
      BigInt(TEST_BALANCE_RAW),
      BigInt(TEST_BALANCE_RAW),
    ])
    expect(double.requests).toContain(`POST ${API_PREFIX}${ROUTES.balances}`)
    // After a backend fault, the next read works.
    double.fault = 'status503'
    await expect(client.getBalances(queries)).rejects.toMatchObject({ name: 'AppError' })
    double.fault = 'ok'
    expect((await client.getBalances(queries)).every((r) => r.status === 'success')).toBe(true)
    client.actor.stop()
  })

  it('the batch answer parses with the real route’s schema; GET /transactions with its', async () => {
    const { double } = await bothBatches({
      queries: [{ chainId: 'eip155:1', tokenAddress: 'native', account: ACCOUNT }],
    })
    expect(double.status).toBe(200)
    expect(BalancesResponseSchema.safeParse(double.body).success).toBe(true)
    const tx = await createBackendDouble().fetch(
      `${TEST_BASE_URL}${API_PREFIX}${ROUTES.transactions}?chainId=eip155:1&hash=0x${'ab'.repeat(32)}`,
      { headers: { 'x-app-key': TEST_APP_KEY } },
    )
    expect(tx.status).toBe(200)
    expect(TransactionStatusResponseSchema.safeParse(await tx.json()).success).toBe(true)
  })

  it.each([
    ['no queries', { queries: [] }],
    ['not an object', [1, 2]],
    ['a query without account', { queries: [{ chainId: 'eip155:1', tokenAddress: 'native' }] }],
  ])('a malformed batch (%s): the same status and code from both', async (_, body) => {
    const { double, real: server } = await bothBatches(body)
    expect(server.status).toBe(422)
    expect(double.status).toBe(server.status)
    expect(double.body.error.code).toBe(server.body.error.code)
  })

  it('a query in a wrong format is its own error, the batch still 200, as on the real server', async () => {
    const body = {
      queries: [
        { chainId: 'not a chain', tokenAddress: 'native', account: ACCOUNT },
        { chainId: 'eip155:1', tokenAddress: 'native', account: '' },
      ],
    }
    const { double, real: server } = await bothBatches(body)
    expect(server.status).toBe(200)
    expect(double.status).toBe(200)
    const codes = (answer: { body: { balances: Array<{ error?: { code: string } }> } }) =>
      answer.body.balances.map((item) => item.error?.code ?? 'balance')
    expect(codes(double)).toEqual(codes(server))
    expect(codes(server)).toEqual(['VALIDATION_FAILED', 'VALIDATION_FAILED'])
  })
})
