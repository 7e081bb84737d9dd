import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it, vi } from 'vitest'
import { waitFor } from 'xstate'
import { createConnectActor } from '../../machines/connect/connect.facade'
import type { ConnectorEvent } from '../../src/connectors/types'
import { DEV_KEYS, ViemTestConnector } from './support/viem-connector'

const settle = (actor: ReturnType<typeof createConnectActor>) =>
  waitFor(actor, (s) => !s.matches('connecting') && !s.matches('disconnecting'))

describe('connect machine with a viem-backed connector', () => {
  it('idle → connecting → connected with JSON-safe connection data', async () => {
    const connector = new ViemTestConnector()
    const actor = createConnectActor(connector).start()
    expect(actor.getSnapshot().value).toBe('idle')
    actor.send({ type: 'CONNECT' })
    expect(actor.getSnapshot().value).toBe('connecting')
    const snapshot = await settle(actor)
    expect(snapshot.value).toBe('connected')
    expect(snapshot.hasTag('connected')).toBe(true)
    expect(snapshot.context.connection).toEqual({
      walletId: null,
      connectorId: 'test:viem',
      namespace: 'eip155',
      chainId: 'eip155:31337',
      accounts: [connector.account.address],
    })
    expect(JSON.parse(JSON.stringify(snapshot.context))).toEqual(snapshot.context)
    expect(connector.listenerCount).toBe(1)
  })

  it('keeps user rejection (4001) apart from other failures', async () => {
    const connector = new ViemTestConnector()
    connector.connectBehaviour = 'reject'
    const actor = createConnectActor(connector).start()
    actor.send({ type: 'CONNECT' })
    const rejected = await settle(actor)
    expect(rejected.value).toBe('rejected')
    expect(rejected.context.error?.code).toBe('USER_REJECTED')

    connector.connectBehaviour = 'fail'
    actor.send({ type: 'RETRY' })
    const failed = await settle(actor)
    expect(failed.value).toBe('failed')
    expect(failed.context.error).toMatchObject({ code: 'WALLET_ERROR' })
    expect(failed.context.error?.message).toContain('-32603')

    connector.connectBehaviour = 'ok'
    actor.send({ type: 'RETRY' })
    const connected = await settle(actor)
    expect(connected.value).toBe('connected')
    expect(connected.context.error).toBeNull()
  })

  it('follows accountsChanged and chainChanged while connected', async () => {
    const connector = new ViemTestConnector()
    const actor = createConnectActor(connector).start()
    actor.send({ type: 'CONNECT' })
    await settle(actor)
    const other = privateKeyToAccount(DEV_KEYS[1]).address
    connector.emit({ type: 'accountsChanged', accounts: [other, connector.account.address] })
    expect(actor.getSnapshot().context.connection?.accounts).toEqual([
      other,
      connector.account.address,
    ])
    connector.emit({ type: 'chainChanged', chainId: 'eip155:1' })
    expect(actor.getSnapshot().context.connection?.chainId).toBe('eip155:1')
    expect(actor.getSnapshot().value).toBe('connected')
  })

  it('an empty accountsChanged or a wallet disconnect returns to idle and unsubscribes', async () => {
    for (const event of [
      { type: 'accountsChanged', accounts: [] },
      { type: 'disconnect' },
    ] as ConnectorEvent[]) {
      const connector = new ViemTestConnector()
      const actor = createConnectActor(connector).start()
      actor.send({ type: 'CONNECT' })
      await settle(actor)
      connector.emit(event)
      expect(actor.getSnapshot().value).toBe('idle')
      expect(actor.getSnapshot().context.connection).toBeNull()
      expect(connector.listenerCount).toBe(0)
      expect(connector.disconnectCalls).toBe(0)
    }
  })

  it('DISCONNECT calls connector.disconnect and returns to idle, even when it fails', async () => {
    const connector = new ViemTestConnector()
    const actor = createConnectActor(connector).start()
    actor.send({ type: 'CONNECT' })
    await settle(actor)
    actor.send({ type: 'DISCONNECT' })
    expect(actor.getSnapshot().value).toBe('disconnecting')
    expect((await settle(actor)).value).toBe('idle')
    expect(connector.disconnectCalls).toBe(1)
    expect(connector.connected).toBe(false)

    connector.disconnectBehaviour = 'fail'
    actor.send({ type: 'CONNECT' })
    await settle(actor)
    actor.send({ type: 'DISCONNECT' })
    const after = await settle(actor)
    expect(after.value).toBe('idle')
    expect(after.context.connection).toBeNull()
    expect(after.context.error?.message).toContain('disconnect failed')
  })

  it('RESET gives up while connecting and ignores the late answer', async () => {
    const connector = new ViemTestConnector()
    const actor = createConnectActor(connector).start()
    actor.send({ type: 'CONNECT' })
    actor.send({ type: 'RESET' })
    await new Promise((r) => setTimeout(r, 10))
    expect(actor.getSnapshot().value).toBe('idle')
    expect(actor.getSnapshot().context.connection).toBeNull()
  })

  it('RESET after a rejection or a failure returns to idle without asking the wallet again', async () => {
    for (const behaviour of ['reject', 'fail'] as const) {
      const connector = new ViemTestConnector()
      const connect = vi.spyOn(connector, 'connect')
      connector.connectBehaviour = behaviour
      const actor = createConnectActor(connector).start()
      actor.send({ type: 'CONNECT' })
      expect((await settle(actor)).context.error).not.toBeNull()
      connector.connectBehaviour = 'ok'
      actor.send({ type: 'RESET' })
      await new Promise((r) => setTimeout(r, 10))
      expect(actor.getSnapshot().value).toBe('idle')
      expect(actor.getSnapshot().context.error).toBeNull()
      expect(actor.getSnapshot().context.connection).toBeNull()
      expect(connect).toHaveBeenCalledTimes(1)
      // From idle, the user can start over.
      actor.send({ type: 'CONNECT' })
      expect((await settle(actor)).value).toBe('connected')
      expect(connect).toHaveBeenCalledTimes(2)
    }
  })

  it('behavior: RECONNECT restores an authorized wallet without connect() (no prompt)', async () => {
    const connector = new ViemTestConnector()
    connector.authorized = true // granted on an earlier page
    const actor = createConnectActor(connector).start()
    actor.send({ type: 'RECONNECT' })
    expect(actor.getSnapshot().value).toBe('reconnecting')
    const snapshot = await waitFor(actor, (s) => !s.matches('reconnecting'))
    expect(snapshot.value).toBe('connected')
    expect(snapshot.context.connection?.accounts).toEqual([connector.account.address])
    expect(connector.connectCalls).toBe(0)
    // Connected as after a prompt: it follows the wallet.
    connector.emit({ type: 'chainChanged', chainId: 'eip155:1' })
    expect(actor.getSnapshot().context.connection?.chainId).toBe('eip155:1')
  })

  it('error: RECONNECT fails NOT_CONNECTED when not authorized, WALLET_ERROR when the wallet fails; CONNECT then works', async () => {
    for (const [behaviour, code] of [
      ['ok', 'NOT_CONNECTED'],
      ['fail', 'WALLET_ERROR'],
    ] as const) {
      const connector = new ViemTestConnector()
      connector.reconnectBehaviour = behaviour
      const actor = createConnectActor(connector).start()
      actor.send({ type: 'RECONNECT' })
      const failed = await waitFor(actor, (s) => !s.matches('reconnecting'))
      expect(failed.value).toBe('failed')
      expect(failed.context.error?.code).toBe(code)
      expect(failed.context.connection).toBeNull()
      actor.send({ type: 'RETRY' })
      expect((await settle(actor)).value).toBe('connected')
      expect(connector.connectCalls).toBe(1)
    }
  })

  it('behavior: RESET while reconnecting returns to idle and ignores the late answer', async () => {
    const connector = new ViemTestConnector()
    connector.authorized = true
    const actor = createConnectActor(connector).start()
    actor.send({ type: 'RECONNECT' })
    actor.send({ type: 'RESET' })
    await new Promise((r) => setTimeout(r, 10))
    expect(actor.getSnapshot().value).toBe('idle')
    expect(actor.getSnapshot().context.connection).toBeNull()
  })
})
