import { afterEach, describe, expect, it, vi } from 'vitest'
import { createBalanceReader } from '../../src/balance'
import { setConsoleLogging, setDebugMode } from '../../src/logging'
import { json, refusedBaseUrl, useLoopback } from './support/loopback'

// The HTTP client logs through src/log-sink.ts, not the logger itself (the balance reader's entry
// goes without it): its lines print once the app turns debug mode on, and only then.

const server = useLoopback()
const query = {
  chainId: 'eip155:1',
  tokenAddress: 'native',
  account: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
}
const answer = { ...query, raw: '1', decimals: 18 }
const debugLines = (spy: { mock: { calls: unknown[][] } }) =>
  spy.mock.calls.filter(([line]) => String(line).startsWith('[scope-connect:http]'))

describe('the HTTP client debug lines', () => {
  afterEach(() => {
    vi.restoreAllMocks()
    setDebugMode(false)
    setConsoleLogging(false)
  })

  it('print each answer once debug mode is on', async () => {
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {})
    setDebugMode(true)
    server.handle(json(200, answer))
    const reader = createBalanceReader({ baseUrl: server.baseUrl, appKey: 'pk_test_debug' })
    await reader.getBalance(query)
    expect(debugLines(debug)).toEqual([['[scope-connect:http] GET /balances: 200']])
  })

  it('print a request that got no answer, with its error (as the logger redacts it)', async () => {
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {})
    setDebugMode(true)
    const reader = createBalanceReader({ baseUrl: await refusedBaseUrl(), appKey: 'pk_test_debug' })
    await expect(reader.getBalance(query)).rejects.toMatchObject({ code: 'RPC_ERROR' })
    const [line] = debugLines(debug)
    expect(line?.[0]).toBe('[scope-connect:http] GET /balances: no answer')
    expect(line?.[1]).toMatchObject({ name: 'TypeError' })
  })

  it('twin: stay silent with console logging on but debug mode off', async () => {
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {})
    setConsoleLogging(true)
    server.handle(json(200, answer))
    const reader = createBalanceReader({ baseUrl: server.baseUrl, appKey: 'pk_test_debug' })
    await reader.getBalance(query)
    expect(debugLines(debug)).toEqual([])
  })
})
