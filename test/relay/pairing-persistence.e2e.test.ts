import { bytesToHex } from '@noble/hashes/utils.js'
import { recoverMessageAddress } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { InspectionEvent } from 'xstate'
import { resumePairing } from '../../machines/pairing/pairing.facade'
import { PAIRING_MACHINE_VERSION } from '../../machines/pairing/pairing.machine'
import type {
  PairingPersistedState,
  PairingStore,
} from '../../machines/pairing/pairing.persistence'
import { createMemoryPairingVault } from '../../machines/pairing/pairing.vault'
import { startTestServer, type TestServer } from '../../server/test/support/server'
import { parsePairingUri } from '../../src/relay'
import { dappPairing, WS, walletSimulator } from './support/pairing-setup'

let server: TestServer
const cleanups: Array<() => void> = []
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server.close()
})
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

async function waitFor(condition: () => boolean | undefined, ms = 10_000): Promise<void> {
  const until = Date.now() + ms
  while (!condition()) {
    if (Date.now() > until) throw new Error('the condition did not hold in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** A store that keeps the JSON text, as localStorage would. */
function jsonStore(): PairingStore & { raw: string | null } {
  const store = {
    raw: null as string | null,
    save(state: PairingPersistedState) {
      store.raw = JSON.stringify(state)
    },
    load() {
      return store.raw === null ? null : (JSON.parse(store.raw) as PairingPersistedState)
    },
    clear() {
      store.raw = null
    },
  }
  return store
}

/** Everything an inspector received, as text (cycles and actor refs cut). */
function inspectorText(events: InspectionEvent[]): string {
  const seen = new WeakSet<object>()
  return JSON.stringify(
    events.map((e) => {
      const x = e as unknown as Record<string, unknown>
      const snapshot = x.snapshot as Record<string, unknown> | undefined
      return {
        type: e.type,
        event: x.event,
        action: x.action,
        context: snapshot?.context,
        value: snapshot?.value,
        output: snapshot?.output,
        error: snapshot?.error,
      }
    }),
    (_key, value) => {
      if (typeof value === 'bigint') return value.toString()
      if (value instanceof Uint8Array) return bytesToHex(value)
      if (typeof value === 'object' && value !== null) {
        if (seen.has(value)) return '[cycle]'
        seen.add(value)
      }
      return value
    },
  )
}

describe('settled sessions survive a reload', () => {
  it('persists in paired.idle, restores with a new relay connection, and signs', async () => {
    const store = jsonStore()
    const dapp = dappPairing(server, { store })
    const wallet = walletSimulator(server)
    cleanups.push(() => wallet.close())
    await wallet.pairAndApprove(dapp.uri as string)
    await dapp.approval
    expect(store.raw).not.toBeNull()
    const saved = JSON.parse(store.raw as string) as PairingPersistedState
    expect(saved).toMatchObject({
      format: 'scope-connect/pairing',
      formatVersion: 1,
      machineVersion: PAIRING_MACHINE_VERSION,
    })
    expect(saved.expiresAt).toBe(dapp.session?.expiresAt)
    // The snapshot itself holds no key: they sit beside it.
    expect(JSON.stringify(saved.snapshot)).not.toContain(saved.secrets.symKeyS)
    expect(JSON.stringify(saved.snapshot)).not.toContain(saved.secrets.sessionTopic)
    // The live connection was online with a socket; the record holds it idle, without either.
    expect(dapp.actor.system.get('relayConnection')?.getSnapshot().value).toMatchObject({
      online: expect.any(String),
    })
    const child = (saved.snapshot as { children: Record<string, { snapshot: unknown }> }).children
      .relayConnection?.snapshot as { value: unknown; children: object; context: object }
    expect(child).toMatchObject({ value: 'idle', children: {} })
    expect(child.context).toMatchObject({ attempt: 0, tokenExpiresAt: null, error: null })

    dapp.stop() // the page goes away
    expect(store.raw).not.toBeNull()

    const resumed = resumePairing({
      baseUrl: server.baseUrl,
      appKey: server.appKey,
      WebSocket: WS,
      store,
    })
    expect(resumed.status).toBe('resumed')
    if (resumed.status !== 'resumed') return
    cleanups.push(() => resumed.flow.stop())
    expect(resumed.flow.uri).toBeNull()
    expect(await resumed.flow.approval).toEqual(dapp.session)
    // The restored child connects again on its own socket once the session topic needs it.
    await waitFor(() =>
      resumed.flow.actor.system.get('relayConnection')?.getSnapshot().hasTag('online'),
    )
    const signature = await resumed.flow.signMessage('after the reload')
    expect(
      await recoverMessageAddress({
        message: 'after the reload',
        signature: signature as `0x${string}`,
      }),
    ).toBe(wallet.evm.address)

    await resumed.flow.disconnect()
    expect(store.raw).toBeNull() // cleared with the end of the flow
  })

  it.each([
    [
      'another machine version',
      (s: PairingPersistedState) => ({ ...s, machineVersion: 99 }),
      /machine version/,
    ],
    [
      'an expired record',
      (s: PairingPersistedState) => ({ ...s, expiresAt: Date.now() - 1 }),
      /expired/,
    ],
    [
      'a corrupt envelope',
      (s: PairingPersistedState) => ({ ...s, secrets: { ...s.secrets, symKeyS: 'xyz' } }),
      /envelope/,
    ],
    [
      'a snapshot not in paired.idle',
      (s: PairingPersistedState) => ({
        ...s,
        snapshot: {
          ...(s.snapshot as object),
          value: { active: { flow: { paired: 'requesting' }, connectivity: 'online' } },
        },
      }),
      /resumable/,
    ],
    [
      'keys of another pairing',
      (s: PairingPersistedState) => ({
        ...s,
        secrets: { ...s.secrets, pairingId: 'f'.repeat(32) },
      }),
      /another pairing/,
    ],
  ])('discards %s and clears the store', async (_name, mutate, reason) => {
    const store = jsonStore()
    const dapp = dappPairing(server, { store })
    const wallet = walletSimulator(server)
    cleanups.push(() => wallet.close())
    await wallet.pairAndApprove(dapp.uri as string)
    await dapp.approval
    dapp.stop()
    store.raw = JSON.stringify(mutate(JSON.parse(store.raw as string)))
    const resumed = resumePairing({
      baseUrl: server.baseUrl,
      appKey: server.appKey,
      WebSocket: WS,
      store,
    })
    expect(resumed).toMatchObject({ status: 'discarded', reason: expect.stringMatching(reason) })
    expect(store.raw).toBeNull()
    expect(
      resumePairing({ baseUrl: server.baseUrl, appKey: server.appKey, WebSocket: WS, store }),
    ).toEqual({
      status: 'none',
    })
  })
})

describe('secrets never reach the inspector', () => {
  it.each([true, false])(
    'symKeyP, symKeyS, the private key and signatures are absent (sanitizeInspection %s)',
    async (sanitizeInspection) => {
      const events: InspectionEvent[] = []
      const vault = createMemoryPairingVault()
      const dapp = dappPairing(server, {
        inspect: (e) => events.push(e),
        sanitizeInspection,
        vault,
      })
      cleanups.push(() => dapp.stop())
      const wallet = walletSimulator(server)
      cleanups.push(() => wallet.close())
      const pairingId = dapp.actor.getSnapshot().context.pairingId
      const before = vault.get(pairingId)
      const privateKey = bytesToHex(before?.privateKey as Uint8Array)
      const symKeyP = bytesToHex(parsePairingUri(dapp.uri as string).symKeyP)
      const pairingTopic = before?.pairingTopic as string
      await wallet.pairAndApprove(dapp.uri as string)
      await dapp.approval
      const after = vault.get(pairingId)
      const symKeyS = bytesToHex(after?.symKeyS as Uint8Array)
      const sessionTopic = after?.sessionTopic as string
      const signature = await dapp.signMessage('secret-free inspection')
      const typed = await dapp.signTypedData({
        types: {
          EIP712Domain: [{ name: 'name', type: 'string' }],
          M: [{ name: 'a', type: 'string' }],
        },
        primaryType: 'M',
        domain: { name: 'x' },
        message: { a: 'b' },
      })

      expect(events.length).toBeGreaterThan(20)
      const text = inspectorText(events)
      expect(text).toContain('paired')
      for (const secret of [
        privateKey,
        symKeyP,
        symKeyS,
        pairingTopic,
        sessionTopic,
        signature,
        typed,
      ]) {
        expect(secret.length).toBeGreaterThanOrEqual(64)
        expect(text).not.toContain(secret.replace(/^0x/, ''))
      }
      expect(text).not.toContain('symKey=')
    },
  )
})
