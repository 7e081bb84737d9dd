// Found after issue 30's region split: the relay region kept the relay connection's state with a
// region-level `PAIRING.CHANGED` handler, which the relay states' own guarded handlers shadowed
// (XState takes the deepest enabled transition). The relay going down and coming back while
// paired left `relayDown` with the old reason, and a timeout could then blame the relay for what
// the wallet did not answer. The real backend and relay (startTestServer), a wallet on the real
// relay that takes every request and answers none; `DroppableWebSocket` is a DOUBLE of the network
// between the page and the relay (a dropped connection, reconnects refused while `down`), as in
// issue-27.relay-timeout-message.test.ts: every socket is a real `ws` one.
import { stringToHex } from 'viem'
import { describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { Client } from '../../src/client'
import { createAnsweringRelayWallet } from '../relay/support/answering-relay-wallet'
import { DAPP_METADATA } from '../relay/support/pairing-setup'
import {
  DROPPABLE_WEBSOCKET,
  DroppableWebSocket,
  failure,
  useRelayServer,
} from '../relay/support/relay-faults'

const CHAIN = 'eip155:31337'
const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

const server = useRelayServer()

describe('a relay connection that went down and came back while paired', () => {
  it('error: the wallet then leaves a signature unanswered — the TIMEOUT names the wallet, not the relay', async () => {
    const client = new Client({
      baseUrl: server.baseUrl,
      appKey: server.appKey,
      WebSocket: DROPPABLE_WEBSOCKET,
      timeouts: { signatureMs: 2_000 },
    })
    const wallet = createAnsweringRelayWallet({
      appKey: server.appKey,
      namespaces: () => ({
        eip155: { accounts: [`${CHAIN}:${ADDRESS}`], chains: [CHAIN], methods: ['personal_sign'] },
      }),
      // Takes the request and never answers it.
      answer: () => new Promise(() => {}),
    })
    const relayDown = () => client.actor.getSnapshot().context.relayDown
    try {
      const flow = await client.pair({ chains: [CHAIN], metadata: DAPP_METADATA })
      await wallet.pairAndApprove(flow.uri as string)
      await flow.approval

      // Down during a signature: its timeout names the relay (the root keeps why it is down).
      DroppableWebSocket.down = true
      DroppableWebSocket.dropAll()
      const whileDown = await failure(client.signMessage('Sign in'))
      expect(whileDown.message).toMatch(/^The relay did not deliver the wallet's signature/)
      expect(relayDown()).not.toBeNull()

      // Back while paired (nothing asked): the root knows the relay is up again.
      DroppableWebSocket.down = false
      await expect
        .poll(() => [...DroppableWebSocket.open].some((s) => s.readyState === WebSocket.OPEN), {
          timeout: 30_000,
        })
        .toBe(true)
      await expect.poll(relayDown, { timeout: 10_000 }).toBeNull()
      expect(client.getView()).toMatchObject({ status: 'connected', isBusy: false })

      // The wallet does not answer the next signature either: its timeout is the wallet's.
      const error = await failure(client.signMessage('Sign in again'))
      expect(error.code).toBe('TIMEOUT')
      expect(error.message).toBe('The wallet did not sign in time.')
      // The request given up while the relay was down waited for the connection and was dropped
      // there: the wallet got only the next one (sent after the queue was flushed).
      expect(wallet.requests.map(({ params }) => (params as unknown[])[0])).toEqual([
        stringToHex('Sign in again'),
      ])
    } finally {
      DroppableWebSocket.down = false
      wallet.close()
      client.actor.stop()
    }
  }, 60_000)
})
