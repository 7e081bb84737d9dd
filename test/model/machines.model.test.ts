import { afterAll, describe, expect, it } from 'vitest'
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate'
import { connectMachine } from '../../machines/connect/connect.machine'
import { sessionPollingMachine } from '../../machines/session-polling/session-polling.machine'
import { signMachine } from '../../machines/sign/sign.machine'
import { universalLinkMachine } from '../../machines/universal-link/universal-link.machine'
import {
  afterEvents,
  type CoverageRow,
  coverageRow,
  explore,
  printCoverage,
} from './support/coverage'

const T = Date.parse('2026-08-20T10:00:00Z')
const SESSION_ID = 'sess_MMMMMMMMMMMMMMMMMMMMMM'
const rows: CoverageRow[] = []

afterAll(() => {
  console.log(`\n${printCoverage(rows)}\n`)
})

/** Counters and timestamps are left out, so the state space stays finite. */
const serialize = (s: AnyMachineSnapshot) =>
  JSON.stringify({
    value: s.value,
    status: s.status,
    target: (s.context as { target?: string }).target ?? null,
    error: (s.context as { error?: { code: string } | null }).error?.code ?? null,
    connected: (s.context as { connection?: unknown }).connection ? 1 : 0,
    hasRequest: (s.context as { request?: unknown }).request ? 1 : 0,
    used: ((s.context as { signatures?: number }).signatures ?? 0) > 0 ? 1 : 0,
  })

const jsonSafe = (value: unknown) => expect(JSON.parse(JSON.stringify(value))).toEqual(value)

// ---- session polling -----------------------------------------------------------------------------

const result = (status: string, extra: Record<string, unknown> = {}) => {
  const connected = status === 'connected' || status === 'signed'
  return {
    sessionId: SESSION_ID,
    status,
    connected,
    signed: status === 'signed',
    walletAddress: connected ? '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' : null,
    signature: status === 'signed' ? '0xsig' : null,
    txSignature: null,
    errorCode: null,
    ...extra,
  }
}
const done = (output: unknown) => ({ type: 'xstate.done.actor.fetchResult', output })
const fail = (error: Record<string, unknown>) => ({ type: 'xstate.error.actor.fetchResult', error })
const LATE = T + 3_600_000

const pollingEvents: AnyEventObject[] = [
  { type: 'CANCEL' },
  { type: 'POLL_NOW' },
  ...afterEvents(sessionPollingMachine),
  {
    type: 'xstate.done.actor.createSession',
    output: {
      session: { sessionId: SESSION_ID, nonce: 'n'.repeat(32), expiresAt: T + 600_000 },
      at: T + 10,
    },
  },
  {
    type: 'xstate.error.actor.createSession',
    error: { code: 'BACKEND_ERROR', message: 'HTTP 401', status: 401, at: T, jitter: 0 },
  },
  ...['pending', 'connected', 'signed', 'rejected', 'failed', 'expired'].map((status) =>
    done({ result: result(status), at: T + 100, jitter: 0.5 }),
  ),
  done({ result: result('connected', { txSignature: '5Tx' }), at: T + 100, jitter: 0.5 }),
  done({ result: result('pending'), at: LATE, jitter: 0.5 }),
  fail({
    code: 'BACKEND_ERROR',
    message: 'gone',
    status: 410,
    backendCode: 'SESSION_EXPIRED',
    at: T + 100,
    jitter: 0.5,
  }),
  fail({ code: 'BACKEND_ERROR', message: 'not found', status: 404, at: T + 100, jitter: 0.5 }),
  fail({
    code: 'BACKEND_ERROR',
    message: 'slow down',
    status: 429,
    retryAfterMs: 5000,
    at: T + 100,
    jitter: 0.5,
  }),
  fail({ code: 'BACKEND_ERROR', message: 'slow down', status: 429, at: T + 100, jitter: 0.5 }),
  fail({ code: 'BACKEND_ERROR', message: 'down', status: 503, at: T + 100, jitter: 0.5 }),
  fail({ code: 'BACKEND_ERROR', message: 'fetch failed', at: T + 100, jitter: 0.5 }),
  fail({ code: 'BACKEND_ERROR', message: 'down', status: 503, at: LATE, jitter: 0.5 }),
]

describe('session-polling model', () => {
  const exploration = explore(
    sessionPollingMachine,
    [
      {
        name: 'existing session, until signed',
        input: { session: { sessionId: SESSION_ID }, startedAt: T, target: 'signed' },
      },
      {
        name: 'create, intent connect',
        input: { create: { caip2Chain: 'eip155:1' }, startedAt: T },
      },
      {
        name: 'until transaction',
        input: { session: { sessionId: SESSION_ID }, startedAt: T, target: 'transaction' },
      },
      {
        name: 'attempt cap 1',
        input: { session: { sessionId: SESSION_ID }, startedAt: T, maxAttempts: 1 },
      },
      {
        name: 'attempt cap 2',
        input: { session: { sessionId: SESSION_ID }, startedAt: T, maxAttempts: 2 },
      },
    ],
    () => pollingEvents,
    serialize,
  )
  const row = coverageRow('session-polling', exploration)
  rows.push(row)

  it('reaches 100 % of states and transitions', () => {
    expect(row.missingStates).toEqual([])
    expect(row.missingTransitions).toEqual([])
  })

  it('the coverage measure does notice gaps (one variant alone is not enough)', () => {
    const partial = coverageRow(
      'partial',
      explore(
        sessionPollingMachine,
        [
          {
            name: 'cap 1',
            input: { session: { sessionId: SESSION_ID }, startedAt: T, maxAttempts: 1 },
          },
        ],
        () => pollingEvents,
        serialize,
      ),
    )
    expect(partial.missingStates).toContain('sessionPolling.creating')
    expect(partial.missingTransitions.length).toBeGreaterThan(5)
  })

  it('every reachable state keeps a JSON-safe context and keeps its invariants', () => {
    const expectedCode: Record<string, string[]> = {
      rejected: ['USER_REJECTED'],
      failed: ['SESSION_FAILED', 'BACKEND_ERROR'],
      expired: ['SESSION_EXPIRED'],
      cancelled: ['ABORTED'],
    }
    for (const { path } of exploration.paths) {
      const { context, value, status, output } = path.state
      jsonSafe(context)
      expect(context.attempts).toBeLessThanOrEqual(context.maxAttempts)
      if (status !== 'done') continue
      if (value === 'signed' || value === 'complete') {
        expect(output).toMatchObject({ ok: true })
        expect(context.error).toBeNull()
      } else {
        expect(output.ok).toBe(false)
        expect(expectedCode[value as string]).toContain(output.error.code)
      }
      jsonSafe(output)
    }
  })

  it('sleeping always has a wait between the backoff floor and Retry-After / 30 s', () => {
    for (const { path } of exploration.paths) {
      const s = path.state
      if (!s.matches({ waiting: 'sleeping' }) && !s.matches({ connected: 'sleeping' })) continue
      expect(s.context.nextDelayMs).toBeGreaterThanOrEqual(750)
      expect(s.context.nextDelayMs).toBeLessThanOrEqual(30_000)
    }
  })

  it('a signed result is only reached through a fetched signed status', () => {
    for (const { path } of exploration.paths) {
      if (path.state.value !== 'signed') continue
      const last = path.steps.at(-1)?.event as { output?: { result?: { status: string } } }
      expect(last.output?.result?.status).toBe('signed')
    }
  })
})

// ---- connect -------------------------------------------------------------------------------------

const connection = {
  walletId: null,
  connectorId: 'test',
  namespace: 'eip155',
  chainId: 'eip155:1',
  accounts: ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8'],
}
const connectEvents: AnyEventObject[] = [
  { type: 'CONNECT' },
  { type: 'RECONNECT' },
  { type: 'RETRY' },
  { type: 'RESET' },
  { type: 'DISCONNECT' },
  { type: 'WALLET.ACCOUNTS_CHANGED', accounts: ['0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'] },
  { type: 'WALLET.ACCOUNTS_CHANGED', accounts: [] },
  { type: 'WALLET.CHAIN_CHANGED', chainId: 'eip155:10' },
  { type: 'WALLET.DISCONNECTED' },
  { type: 'WALLET.PAIRING_URI', uri: 'wc:7f6e@2?relay-protocol=irn&symKey=00' },
  { type: 'xstate.done.actor.connectWallet', output: connection },
  { type: 'xstate.error.actor.connectWallet', error: { code: 4001, message: 'User rejected' } },
  { type: 'xstate.error.actor.connectWallet', error: { code: -32603, message: 'Internal' } },
  { type: 'xstate.done.actor.reconnectWallet', output: connection },
  // A silent reconnect never prompts: not authorized is NOT_CONNECTED (a 4001 is mapped to it).
  { type: 'xstate.error.actor.reconnectWallet', error: { code: 'NOT_CONNECTED', message: 'no' } },
  { type: 'xstate.done.actor.disconnectWallet', output: undefined },
  { type: 'xstate.error.actor.disconnectWallet', error: { code: 'WALLET_ERROR', message: 'nope' } },
]

describe('connect model', () => {
  const exploration = explore(
    connectMachine,
    [{ name: 'default', input: { connectorId: 'test' } }],
    () => connectEvents,
    serialize,
  )
  const row = coverageRow('connect', exploration)
  rows.push(row)

  it('reaches 100 % of states and transitions', () => {
    expect(row.missingStates).toEqual([])
    expect(row.missingTransitions).toEqual([])
  })

  it('keeps user rejection apart from failure, and connection data only while connected', () => {
    for (const { path } of exploration.paths) {
      const { value, context } = path.state
      jsonSafe(context)
      if (value === 'rejected') expect(context.error?.code).toBe('USER_REJECTED')
      if (value === 'failed') expect(context.error?.code).not.toBe('USER_REJECTED')
      if (value === 'connected') expect(context.connection?.accounts.length).toBeGreaterThan(0)
      if (['idle', 'reconnecting', 'rejected', 'failed'].includes(String(value)))
        expect(context.connection).toBeNull()
    }
  })
})

// ---- sign ----------------------------------------------------------------------------------------

const request = {
  method: 'personal_sign',
  params: ['0x68656c6c6f', '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'],
}
const verify = {
  sessionId: SESSION_ID,
  walletAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  timestamp: T,
}
const signEvents: AnyEventObject[] = [
  { type: 'SIGN' },
  { type: 'SIGN', request },
  { type: 'RETRY' },
  { type: 'RESET' },
  { type: 'xstate.done.actor.requestSignature', output: '0xsignature' },
  { type: 'xstate.error.actor.requestSignature', error: { code: 4001, message: 'User rejected' } },
  { type: 'xstate.error.actor.requestSignature', error: { code: -32000, message: 'Ledger' } },
  { type: 'xstate.done.actor.verifySignature', output: { ...result('signed') } },
  { type: 'xstate.done.actor.verifySignature', output: { ...result('connected') } },
  {
    type: 'xstate.error.actor.verifySignature',
    error: { code: 'BACKEND_ERROR', message: 'HTTP 422', status: 422 },
  },
]

describe('sign model', () => {
  const exploration = explore(
    signMachine,
    [
      { name: 'no input', input: {} },
      { name: 'with verification', input: { request, verify } },
    ],
    () => signEvents,
    (s) => `${serialize(s)}|${(s.context as { verify: unknown }).verify ? 'v' : '-'}`,
  )
  const row = coverageRow('sign', exploration)
  rows.push(row)

  it('reaches 100 % of states and transitions', () => {
    expect(row.missingStates).toEqual([])
    expect(row.missingTransitions).toEqual([])
  })

  it('only verifies when asked, and signed always carries a signature', () => {
    for (const { path } of exploration.paths) {
      const { value, context } = path.state
      jsonSafe(context)
      if (value === 'verifying') expect(context.verify).not.toBeNull()
      if (value === 'signed') {
        expect(context.signature).toBe('0xsignature')
        if (context.verify) expect(context.verification?.signed).toBe(true)
      }
      if (value === 'rejected') expect(context.error?.code).toBe('USER_REJECTED')
    }
  })
})

// ---- universal link ------------------------------------------------------------------------------

const ulSession = {
  sessionId: SESSION_ID,
  nonce: 'n'.repeat(32),
  expiresAt: T + 600_000,
}
const pollOk = (extra: Record<string, unknown> = {}) => ({
  type: 'xstate.done.actor.poll',
  output: {
    ok: true,
    result: result('connected', { walletAddress: 'So1anaAddre55So1anaAddre55', ...extra }),
    session: ulSession,
  },
})
const ulEvents: AnyEventObject[] = [
  { type: 'SIGN_MESSAGE' },
  { type: 'SIGN_TRANSACTION', payload: 'AQID' },
  { type: 'DISCONNECT' },
  { type: 'CANCEL' },
  { type: 'xstate.done.actor.createSession', output: ulSession },
  {
    type: 'xstate.error.actor.createSession',
    error: { code: 'BACKEND_ERROR', message: 'HTTP 401' },
  },
  pollOk({ signature: 'sig' }),
  // The wallet opened, or its link failed to open (the flow waits either way).
  { type: 'xstate.done.actor.openWallet' },
  { type: 'xstate.error.actor.openWallet', error: new Error('the link cannot be opened') },
  // A poll step (the poller's snapshot, forwarded so that persistence sees it).
  { type: 'xstate.snapshot.poll', snapshot: { status: 'active' } },
  ...['USER_REJECTED', 'SESSION_EXPIRED', 'ABORTED', 'SESSION_FAILED'].map((code) => ({
    type: 'xstate.done.actor.poll',
    output: { ok: false, error: { code, message: code }, result: null, session: ulSession },
  })),
]

describe('universal-link model', () => {
  const exploration = explore(
    universalLinkMachine,
    [
      {
        name: 'solana devnet',
        input: { walletId: 'phantom', chainId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1' },
      },
    ],
    () => ulEvents,
    serialize,
  )
  const row = coverageRow('universal-link', exploration)
  rows.push(row)

  it('reaches 100 % of states and transitions', () => {
    expect(row.missingStates).toEqual([])
    expect(row.missingTransitions).toEqual([])
  })

  it('only resumable states wait on the wallet, and every reachable context is JSON-safe', () => {
    for (const { path } of exploration.paths) {
      const s = path.state
      jsonSafe(s.context)
      const waiting =
        s.matches('awaitingWallet') || s.matches('awaitingSignature') || s.matches('reconnecting')
      if (waiting) expect(s.hasTag('resumable')).toBe(true)
      // Neither creating a session nor opening the wallet may be redone by a restore.
      if (s.matches('creatingSession')) expect(s.hasTag('resumable')).toBe(false)
      if (String(s.value).startsWith('opening')) expect(s.hasTag('resumable')).toBe(false)
      if (s.status === 'done') {
        expect(s.output.status).toBe(s.value)
        jsonSafe(s.output)
      }
      if (s.value === 'rejected') expect(s.context.error?.code).toBe('USER_REJECTED')
      if (s.value === 'expired') expect(s.context.error?.code).toBe('SESSION_EXPIRED')
    }
  })
})
