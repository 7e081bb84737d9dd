import { describe, expect, it } from 'vitest'
import {
  ApproveResultSchema,
  createReplayGuard,
  ProposeParamsSchema,
  parseJsonRpc,
  payloadId,
  payloadTime,
  REPLAY_WINDOW_MS,
  SessionRequestParamsSchema,
  SettledNamespacesSchema,
} from '../../src/relay/protocol'

const T = Date.parse('2026-11-23T10:00:00Z')
const KEY = 'ab'.repeat(32)
const metadata = { name: 'Example dApp', url: 'https://dapp.example' }
const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

describe('JSON-RPC inside envelopes', () => {
  it('reads requests and both kinds of responses, and nothing else', () => {
    expect(parseJsonRpc('{"jsonrpc":"2.0","id":5,"method":"scr_sessionPing","params":{}}')).toEqual(
      {
        kind: 'request',
        message: { jsonrpc: '2.0', id: 5, method: 'scr_sessionPing', params: {} },
      },
    )
    expect(parseJsonRpc('{"jsonrpc":"2.0","id":5,"result":true}')?.kind).toBe('response')
    expect(parseJsonRpc('{"jsonrpc":"2.0","id":5,"result":null}')?.kind).toBe('response')
    expect(
      parseJsonRpc('{"jsonrpc":"2.0","id":5,"error":{"code":4001,"message":"no"}}'),
    ).toMatchObject({ kind: 'response', message: { error: { code: 4001 } } })
    for (const bad of [
      'not json',
      'null',
      '[]',
      '{"jsonrpc":"1.0","id":5,"method":"x"}',
      '{"jsonrpc":"2.0","id":"5","method":"x"}',
      '{"jsonrpc":"2.0","id":5.5,"method":"x"}',
      '{"jsonrpc":"2.0","id":-1,"result":true}',
      '{"jsonrpc":"2.0","id":5}',
      '{"jsonrpc":"2.0","id":5,"error":{"code":"x","message":"no"}}',
    ]) {
      expect(parseJsonRpc(bad), bad).toBeNull()
    }
  })

  it('ids carry their sending time and stay below 2^53', () => {
    const id = payloadId(T, 0.9999)
    expect(Number.isSafeInteger(id)).toBe(true)
    expect(payloadTime(id)).toBe(T)
    expect(id % 1000).toBe(999)
    expect(payloadId(T, 0) % 1000).toBe(0)
  })
})

describe('replay guard', () => {
  it('accepts a fresh id once, refuses it again on the same topic, not on another', () => {
    const guard = createReplayGuard()
    const id = payloadId(T, 0.1)
    expect(guard.check('a', id, T + 10)).toBe('fresh')
    expect(guard.check('a', id, T + 20)).toBe('replayed')
    expect(guard.check('b', id, T + 20)).toBe('fresh')
  })

  it('refuses ids outside the window, in the past and in the future', () => {
    const guard = createReplayGuard()
    expect(guard.check('a', payloadId(T - REPLAY_WINDOW_MS - 1, 0), T)).toBe('stale')
    expect(guard.check('a', payloadId(T + REPLAY_WINDOW_MS + 1, 0), T)).toBe('stale')
    expect(guard.check('a', payloadId(T - REPLAY_WINDOW_MS, 0), T)).toBe('fresh')
  })

  it('forgets ids once they are outside the window (they are stale then anyway)', () => {
    const guard = createReplayGuard(1000)
    const id = payloadId(T, 0)
    expect(guard.check('a', id, T)).toBe('fresh')
    expect(guard.check('a', payloadId(T + 2500, 0), T + 2500)).toBe('fresh') // sweeps
    expect(guard.check('a', id, T + 2500)).toBe('stale')
  })
})

describe('session messages', () => {
  it('validates a proposal', () => {
    const proposal = {
      proposer: { publicKey: KEY, metadata },
      requiredNamespaces: {
        eip155: { chains: ['eip155:1'], methods: ['personal_sign'], events: ['accountsChanged'] },
      },
      expiryTimestamp: 1_800_000_000,
    }
    expect(ProposeParamsSchema.safeParse(proposal).success).toBe(true)
    const bad = [
      { ...proposal, proposer: { publicKey: KEY.toUpperCase(), metadata } },
      { ...proposal, proposer: { publicKey: KEY, metadata: { url: 'x' } } },
      { ...proposal, requiredNamespaces: { eip155: { chains: ['mainnet'] } } },
      { ...proposal, requiredNamespaces: { E: {} } },
      { ...proposal, expiryTimestamp: 1.5 },
    ]
    for (const value of bad) expect(ProposeParamsSchema.safeParse(value).success).toBe(false)
  })

  it('validates an approval: settled namespaces need CAIP-10 accounts', () => {
    const approval = {
      responder: { publicKey: KEY, metadata },
      namespaces: { eip155: { accounts: [`eip155:1:${ADDRESS}`], methods: ['personal_sign'] } },
      expiry: 1_800_000_000,
    }
    expect(ApproveResultSchema.safeParse(approval).success).toBe(true)
    expect(SettledNamespacesSchema.safeParse({ eip155: { accounts: [] } }).success).toBe(false)
    expect(SettledNamespacesSchema.safeParse({ eip155: { accounts: [ADDRESS] } }).success).toBe(
      false,
    )
  })

  it('validates each wallet method with its own params', () => {
    const ok = (request: unknown) =>
      SessionRequestParamsSchema.safeParse({ chainId: 'eip155:1', request }).success
    expect(ok({ method: 'personal_sign', params: ['0x68656c6c6f', ADDRESS] })).toBe(true)
    expect(ok({ method: 'personal_sign', params: [ADDRESS, '0x68656c6c6f'] })).toBe(false)
    expect(ok({ method: 'personal_sign', params: ['hello', ADDRESS] })).toBe(false)
    expect(ok({ method: 'eth_signTypedData_v4', params: [ADDRESS, '{"types":{}}'] })).toBe(true)
    expect(ok({ method: 'eth_signTypedData_v4', params: [ADDRESS, { types: {} }] })).toBe(false)
    expect(
      ok({ method: 'solana_signMessage', params: { message: '3yZe7d', pubkey: '9xQe' } }),
    ).toBe(true)
    expect(ok({ method: 'solana_signMessage', params: { message: '0OIl', pubkey: '9xQe' } })).toBe(
      false,
    )
    expect(ok({ method: 'solana_signTransaction', params: { transaction: 'AQID' } })).toBe(true)
    expect(ok({ method: 'eth_sendTransaction', params: [{}] })).toBe(false)
  })
})
