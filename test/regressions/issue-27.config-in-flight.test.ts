import { describe, expect, it } from 'vitest'
import { Client } from '../../src/client'
import { createConnectConfigClient } from '../../src/config'
import { isAppError } from '../../src/errors'
import { backendError, type Handler, json, useLoopback } from '../http/support/loopback'

// Issue 27, finding 10: `GET /config` reads were not deduplicated while one was in flight. Now one
// request at a time: the calls made meanwhile share its answer (a failure too), and the next call
// after it settled asks again. A counting loopback server that answers after a pause.

const server = useLoopback()
const CONFIG = {
  projectId: 'proj_1',
  name: 'Demo dApp',
  networks: [
    {
      networkId: 'eip155:1',
      namespace: 'eip155',
      name: 'Ethereum',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      testnet: false,
    },
  ],
  wallets: [{ walletId: 'metamask', name: 'MetaMask', namespaces: ['eip155'] }],
}
const later =
  (handler: Handler, ms = 50): Handler =>
  (request, response) => {
    setTimeout(() => handler(request, response), ms)
  }
const configReads = () =>
  server.requests.filter((r) => r.url.pathname === '/api/v1/connect/config').length

describe('issue 27: one GET /config in flight at a time', () => {
  it('default: concurrent fetchConfig() calls share one request; each gets its own copy', async () => {
    server.handle(later(json(200, CONFIG)))
    const client = createConnectConfigClient({ baseUrl: server.baseUrl, appKey: 'pk_cfg' })
    const answers = await Promise.all([
      client.fetchConfig(),
      client.fetchConfig(),
      client.fetchConfig(),
    ])
    expect(configReads()).toBe(1)
    for (const answer of answers) expect(answer).toEqual(CONFIG)
    // Copies: one caller changing its answer does not change another's.
    answers[0]?.networks.pop()
    expect(answers[1]?.networks).toHaveLength(1)
    // Settled: the next call asks again.
    expect(await client.fetchConfig()).toEqual(CONFIG)
    expect(configReads()).toBe(2)
  })

  it('error: a failing request fails every call that shared it, and the next call asks again', async () => {
    server.handle(later(backendError(500, 'INTERNAL_ERROR', 'down')))
    const client = createConnectConfigClient({ baseUrl: server.baseUrl, appKey: 'pk_cfg' })
    const settled = await Promise.allSettled([client.fetchConfig(), client.fetchConfig()])
    expect(configReads()).toBe(1)
    for (const result of settled) {
      expect(result.status).toBe('rejected')
      if (result.status === 'rejected') expect(isAppError(result.reason, 'RPC_ERROR')).toBe(true)
    }
    server.handle(json(200, CONFIG))
    expect(await client.fetchConfig()).toEqual(CONFIG)
    expect(configReads()).toBe(2)
  })

  it('default: the Client’s concurrent loadConfig() calls send one request', async () => {
    server.handle(later(json(200, CONFIG)))
    const client = new Client({
      baseUrl: server.baseUrl,
      appKey: 'pk_cfg',
      connectionStore: null,
      mobile: false,
    })
    const answers = await Promise.all([
      client.loadConfig(),
      client.loadConfig(),
      client.loadConfig(),
    ])
    expect(configReads()).toBe(1)
    for (const answer of answers) expect(answer).toEqual(CONFIG)
    await client.loadConfig()
    expect(configReads()).toBe(2)
  })
})
