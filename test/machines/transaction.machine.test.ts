import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { MAX_STATUS_FAILURES } from '../../machines/transaction/transaction.types'
import { toTransactionView } from '../../machines/transaction/transaction.view'
import { HASH, REPLACEMENT, REQUEST, scriptedTransaction } from './support/scripted-transaction'

const value = (t: ReturnType<typeof scriptedTransaction>) => t.actor.getSnapshot().value
const stage = (t: ReturnType<typeof scriptedTransaction>) =>
  toTransactionView(t.actor.getSnapshot()).stage

describe('transaction machine', () => {
  it('default: wallet answer → submitted → pending → confirmed, with the receipt summary', async () => {
    const t = scriptedTransaction()
    t.actor.start()
    expect(value(t)).toBe('awaitingWallet')
    expect(t.actor.getSnapshot().hasTag('cancellable')).toBe(true)
    await t.walletAnswers()
    expect(value(t)).toEqual({ watching: 'submitted' })
    expect(t.reads).toHaveLength(1)
    expect(t.reads[0]!.input).toEqual({ chainId: REQUEST.chainId, hash: HASH, last: null })
    await t.backendAnswers({ status: 'unknown' })
    expect(value(t)).toEqual({ watching: 'submitted' })
    await t.backendAnswers({ status: 'pending', etag: '"p"' })
    expect(stage(t)).toBe('pending')
    expect(t.reads.at(-1)!.input.last).toMatchObject({ status: 'pending', etag: '"p"' })
    await t.backendAnswers({ status: 'confirmed', blockNumber: '7', confirmations: 1 })
    const snapshot = t.actor.getSnapshot()
    expect(snapshot.status).toBe('done')
    expect(snapshot.output).toEqual({
      outcome: 'confirmed',
      chainId: REQUEST.chainId,
      hash: HASH,
      blockNumber: '7',
      confirmations: 1,
      replacedBy: null,
      revertReason: null,
      error: null,
    })
  })

  it('parameters: confirmations — a mined transaction waits in confirming for more blocks', async () => {
    const t = scriptedTransaction({ confirmations: 3 })
    t.actor.start()
    await t.walletAnswers()
    await t.backendAnswers({ status: 'confirmed', blockNumber: '7', confirmations: 1 })
    expect(value(t)).toEqual({ watching: 'confirming' })
    await t.backendAnswers({ status: 'confirmed', blockNumber: '7', confirmations: 2 })
    expect(value(t)).toEqual({ watching: 'confirming' })
    expect(toTransactionView(t.actor.getSnapshot())).toMatchObject({
      stage: 'confirming',
      confirmations: 2,
      confirmationsWanted: 3,
    })
    await t.backendAnswers({ status: 'confirmed', blockNumber: '7', confirmations: 3 })
    expect(t.actor.getSnapshot().output?.outcome).toBe('confirmed')
  })

  it('behavior: reverted, with the reason the node gave', async () => {
    const t = scriptedTransaction()
    t.actor.start()
    await t.walletAnswers()
    await t.backendAnswers({
      status: 'reverted',
      blockNumber: '9',
      confirmations: 1,
      revertReason: 'nope',
    })
    expect(t.actor.getSnapshot().output).toMatchObject({
      outcome: 'reverted',
      revertReason: 'nope',
      error: { code: 'TRANSACTION_REVERTED', message: 'The transaction reverted: nope' },
    })
  })

  it('behavior: a reverted transaction without a reason says so plainly', async () => {
    const t = scriptedTransaction()
    t.actor.start()
    await t.walletAnswers()
    await t.backendAnswers({ status: 'reverted', blockNumber: '9', confirmations: 1 })
    expect(t.actor.getSnapshot().output?.error?.message).toBe('The transaction reverted.')
  })

  it('behavior: replaced — unknown with replacedBy, from pending', async () => {
    const t = scriptedTransaction()
    t.actor.start()
    await t.walletAnswers()
    await t.backendAnswers({ status: 'pending' })
    await t.backendAnswers({ status: 'unknown', replacedBy: REPLACEMENT })
    expect(t.actor.getSnapshot().output).toMatchObject({
      outcome: 'replaced',
      replacedBy: REPLACEMENT,
      error: { code: 'TRANSACTION_REPLACED' },
    })
  })

  it('behavior: replaced even when the node never showed it pending', async () => {
    const t = scriptedTransaction()
    t.actor.start()
    await t.walletAnswers()
    await t.backendAnswers({ status: 'unknown', replacedBy: REPLACEMENT })
    expect(t.actor.getSnapshot().output?.outcome).toBe('replaced')
  })

  it('behavior: dropped — seen pending, then unknown', async () => {
    const t = scriptedTransaction()
    t.actor.start()
    await t.walletAnswers()
    await t.backendAnswers({ status: 'pending' })
    await t.backendAnswers({ status: 'unknown' })
    expect(t.actor.getSnapshot().output).toMatchObject({
      outcome: 'dropped',
      error: { code: 'TRANSACTION_DROPPED', message: 'The node dropped the pending transaction.' },
    })
  })

  it('behavior: dropped — never shown by the node within notSeenMs', async () => {
    const t = scriptedTransaction({ timeouts: { notSeenMs: 5_000 } })
    t.actor.start()
    await t.walletAnswers()
    await t.backendAnswers({ status: 'unknown' })
    await t.advance(4_999)
    expect(value(t)).toEqual({ watching: 'submitted' })
    await t.advance(1)
    expect(t.actor.getSnapshot().output).toMatchObject({
      outcome: 'dropped',
      error: { code: 'TRANSACTION_DROPPED', message: 'The node never showed the transaction.' },
    })
  })

  it('behavior: a transaction seen pending is not dropped by notSeenMs', async () => {
    const t = scriptedTransaction({ timeouts: { notSeenMs: 5_000 } })
    t.actor.start()
    await t.walletAnswers()
    await t.backendAnswers({ status: 'pending' })
    await t.advance(10_000)
    expect(value(t)).toEqual({ watching: 'pending' })
  })

  it('error: the user rejects → rejected, USER_REJECTED', async () => {
    const t = scriptedTransaction()
    t.actor.start()
    t.sends[0]!.reject(Object.assign(new Error('User rejected the request.'), { code: 4001 }))
    await t.settle()
    expect(t.actor.getSnapshot().output).toMatchObject({
      outcome: 'rejected',
      hash: null,
      error: { code: 'USER_REJECTED' },
    })
  })

  it('error: the wallet fails otherwise → failed, WALLET_ERROR', async () => {
    const t = scriptedTransaction()
    t.actor.start()
    t.sends[0]!.reject(Object.assign(new Error('insufficient funds'), { code: -32000 }))
    await t.settle()
    expect(t.actor.getSnapshot().output).toMatchObject({
      outcome: 'failed',
      error: { code: 'WALLET_ERROR' },
    })
  })

  it('behavior: CANCEL before the wallet answers → aborted, ABORTED; after, it is ignored', async () => {
    const t = scriptedTransaction()
    t.actor.start()
    t.actor.send({ type: 'CANCEL' })
    expect(t.actor.getSnapshot().output).toMatchObject({
      outcome: 'aborted',
      error: { code: 'ABORTED' },
    })
    const u = scriptedTransaction()
    u.actor.start()
    await u.walletAnswers()
    u.actor.send({ type: 'CANCEL' })
    expect(value(u)).toEqual({ watching: 'submitted' })
  })

  it('error: the wallet does not answer within walletAnswerMs → failed, TIMEOUT', async () => {
    const t = scriptedTransaction({ timeouts: { walletAnswerMs: 2_000 } })
    t.actor.start()
    await t.advance(1_999)
    expect(value(t)).toBe('awaitingWallet')
    await t.advance(1)
    expect(t.actor.getSnapshot().output).toMatchObject({
      outcome: 'failed',
      error: { code: 'TIMEOUT' },
    })
  })

  it('error: a failed read backs off and reads again, back where it was', async () => {
    const t = scriptedTransaction({ timeouts: { retryMs: 100 } })
    t.actor.start()
    await t.walletAnswers()
    await t.backendAnswers({ status: 'pending' })
    await t.backendFails()
    expect(value(t)).toBe('backoff')
    expect(stage(t)).toBe('retrying')
    expect(t.actor.getSnapshot().context.error).toMatchObject({ code: 'RPC_ERROR' })
    await t.advance(99)
    expect(value(t)).toBe('backoff')
    await t.advance(1)
    expect(value(t)).toEqual({ watching: 'pending' })
    // The second failure in a row waits twice as long.
    await t.backendFails()
    await t.advance(199)
    expect(value(t)).toBe('backoff')
    await t.advance(1)
    expect(value(t)).toEqual({ watching: 'pending' })
    await t.backendAnswers({ status: 'confirmed', blockNumber: '3', confirmations: 1 })
    expect(t.actor.getSnapshot().output).toMatchObject({ outcome: 'confirmed', error: null })
  })

  it(`error: ${MAX_STATUS_FAILURES} failed reads in a row fail it with the read's code`, async () => {
    const t = scriptedTransaction({ timeouts: { retryMs: 10 } })
    t.actor.start()
    await t.walletAnswers()
    for (let i = 0; i < MAX_STATUS_FAILURES; i++) {
      await t.backendFails({ code: 'RPC_ERROR', message: `down ${i}` })
      if (i < MAX_STATUS_FAILURES - 1) await t.advance(10 * 2 ** i)
    }
    expect(t.actor.getSnapshot().output).toMatchObject({
      outcome: 'failed',
      hash: HASH,
      error: { code: 'RPC_ERROR', message: `down ${MAX_STATUS_FAILURES - 1}` },
    })
  })

  it('error: not confirmed within receiptMs → failed, TIMEOUT (while watching and while backing off)', async () => {
    const t = scriptedTransaction({ timeouts: { receiptMs: 10_000 } })
    t.actor.start()
    await t.walletAnswers()
    await t.backendAnswers({ status: 'pending' })
    await t.advance(9_999)
    expect(value(t)).toEqual({ watching: 'pending' })
    await t.advance(1)
    expect(t.actor.getSnapshot().output).toMatchObject({
      outcome: 'failed',
      error: { code: 'TIMEOUT' },
    })
    const u = scriptedTransaction({ timeouts: { receiptMs: 10_000, retryMs: 60_000 } })
    u.actor.start()
    await u.walletAnswers()
    await u.backendFails()
    await u.advance(10_000)
    expect(u.actor.getSnapshot().output).toMatchObject({
      outcome: 'failed',
      error: { code: 'TIMEOUT' },
    })
  })

  it('behavior: the receipt deadline is absolute — re-entered reads do not restart it', async () => {
    const t = scriptedTransaction({ timeouts: { receiptMs: 10_000 } })
    t.actor.start()
    await t.walletAnswers()
    await t.advance(6_000)
    await t.backendAnswers({ status: 'pending' })
    await t.advance(3_999)
    expect(value(t)).toEqual({ watching: 'pending' })
    await t.advance(1)
    expect(t.actor.getSnapshot().output?.error?.code).toBe('TIMEOUT')
  })

  it('behavior: resumed with `submitted`, it watches the same hash and keeps its deadlines', async () => {
    const t = scriptedTransaction({
      request: null,
      submitted: {
        chainId: REQUEST.chainId,
        hash: HASH,
        deadlines: { wallet: null, receipt: 1_000_000 + 500, notSeen: 1_000_000 + 100_000 },
      },
    })
    t.actor.start()
    expect(value(t)).toEqual({ watching: 'submitted' })
    expect(t.sends).toHaveLength(0)
    expect(t.reads[0]!.input.hash).toBe(HASH)
    await t.advance(500)
    expect(t.actor.getSnapshot().output).toMatchObject({
      outcome: 'failed',
      error: { code: 'TIMEOUT' },
    })
  })

  it('behavior: its snapshot while watching is JSON and restores into the same state', async () => {
    const t = scriptedTransaction()
    t.actor.start()
    await t.walletAnswers()
    await t.backendAnswers({ status: 'pending' })
    const json = JSON.parse(JSON.stringify(t.actor.getPersistedSnapshot()))
    t.actor.stop()
    const restored = createActor(t.machine, { snapshot: json, input: { request: REQUEST } })
    restored.start()
    expect(restored.getSnapshot().value).toEqual({ watching: 'pending' })
    expect(restored.getSnapshot().context).toMatchObject({ hash: HASH, seenPending: true })
    expect(restored.getSnapshot().hasTag('resumable')).toBe(true)
    restored.stop()
  })

  it('behavior: what the root reads of it: its flow, the hash once the wallet answered; a failure before it ends with no hash and the wallet error', async () => {
    const sent = scriptedTransaction({ flow: 7 })
    sent.actor.start()
    expect(sent.actor.getSnapshot().context).toMatchObject({ flow: 7, hash: null })
    await sent.walletAnswers()
    expect(sent.actor.getSnapshot().context).toMatchObject({ flow: 7, hash: HASH })
    const refused = scriptedTransaction({ flow: 8 })
    refused.actor.start()
    refused.sends[0]?.reject(Object.assign(new Error('no'), { code: 4001 }))
    await refused.settle()
    expect(refused.actor.getSnapshot().output).toMatchObject({
      outcome: 'rejected',
      hash: null,
      error: { code: 'USER_REJECTED' },
    })
  })

  it('behavior: standalone (no flow, no parent) it watches the hash the wallet answered', async () => {
    const t = scriptedTransaction()
    t.actor.start()
    await t.walletAnswers()
    expect(value(t)).toEqual({ watching: 'submitted' })
  })
})
