// Issue 27 (small ones; "What to build" 8), the relay flow (`Client.pair()`, `scr`): a signature
// wait that ends while the dApp's relay connection is down must say the relay did not deliver the
// wallet's answer, not that the wallet did not sign. The real backend and relay
// (startTestServer), a wallet on the real relay with a real viem key (the answering relay wallet);
// `DroppableWebSocket` is a DOUBLE of the network between the page and the relay (a dropped
// connection, and reconnects refused while `down`), named so: every socket is a real `ws` one.
import { type Hex, recoverMessageAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
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
const evm = privateKeyToAccount(
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
)

const server = useRelayServer()

describe('issue 27: a relay timeout says what did not answer', () => {
  it('error: the relay connection is down when signatureMs ends — TIMEOUT names the relay; back up, the next signature works', async () => {
    const client = new Client({
      baseUrl: server.baseUrl,
      appKey: server.appKey,
      WebSocket: DROPPABLE_WEBSOCKET,
      timeouts: { signatureMs: 3_000 },
    })
    const wallet = createAnsweringRelayWallet({
      appKey: server.appKey,
      namespaces: () => ({
        eip155: {
          accounts: [`${CHAIN}:${evm.address}`],
          chains: [CHAIN],
          methods: ['personal_sign'],
        },
      }),
      answer: ({ params }) => evm.signMessage({ message: { raw: (params as [Hex])[0] } }),
    })
    try {
      const flow = await client.pair({ chains: [CHAIN], metadata: DAPP_METADATA })
      await wallet.pairAndApprove(flow.uri as string)
      await flow.approval

      DroppableWebSocket.down = true
      DroppableWebSocket.dropAll()
      const error = await failure(client.signMessage('Sign in'))
      expect(error.code).toBe('TIMEOUT')
      expect(error.message).toMatch(
        /^The relay did not deliver the wallet's signature in time \(the connection to the relay is down; last: .+\)\.$/,
      )
      expect(client.getView()).toMatchObject({ isConnected: true, isBusy: false })

      DroppableWebSocket.down = false
      // Back up once the relay connection's next attempt, after its backoff (0.5 s doubling, with
      // jitter), has a socket open: a signature asked before that could time out waiting for it.
      await expect
        .poll(() => [...DroppableWebSocket.open].some((s) => s.readyState === WebSocket.OPEN), {
          timeout: 30_000,
        })
        .toBe(true)
      const signature = await client.signMessage('Sign in again')
      expect(
        await recoverMessageAddress({ message: 'Sign in again', signature: signature as Hex }),
      ).toBe(evm.address)
    } finally {
      DroppableWebSocket.down = false
      wallet.close()
      client.actor.stop()
    }
  }, 60_000)
})
