// A wallet on the relay that answers whatever it is told to: the real relay client, peer, keyring
// and X25519 key agreement of `scope-connect/wallet`, without `createRelayWallet`'s own checks of
// what its handler answers (which keep an honest wallet from sending a bad answer). It plays a
// broken or hostile wallet for the dApp side's checks of wallet answers (issue 27).
import WebSocket from 'ws'
import { baseUrlForRelayUrl, createRelayTokenSource } from '../../../src/relay/client/token-source'
import type { WebSocketConstructor } from '../../../src/relay/client/websocket'
import { deriveSessionKey, generateKeyPair } from '../../../src/relay/crypto/session-key'
import { createRelayClient } from '../../../src/relay/face/relay-client'
import { parsePairingUri } from '../../../src/relay/parse-pairing-uri'
import { createMemoryKeyring } from '../../../src/relay/peer/keyring'
import { createRelayPeer, type IncomingRequest } from '../../../src/relay/peer/relay-peer'
import { SESSION_METHODS } from '../../../src/relay/protocol/methods'

/** What the answering wallet answers: the approval's namespaces, and each request's result. */
export interface AnsweringRelayWalletOptions {
  appKey: string
  /** The `namespaces` of the approval (anything: it is sent as given). */
  namespaces(): unknown
  /** The result of a `scr_sessionRequest` (anything, or its promise: it is sent as given). */
  answer(request: { method: string; params: unknown; chainId: string }): unknown
}

export interface AnsweringRelayWallet {
  /** Pairs from the URI and approves with `namespaces()`; resolves once the approval is sent. */
  pairAndApprove(uri: string): Promise<void>
  /** Sends `scr_sessionEvent` with `params` (anything: it is sent as given) on the session topic. */
  emit(params: unknown): Promise<void>
  /** The wallet calls it answered, in order. */
  readonly requests: Array<{ method: string; params: unknown; chainId: string }>
  close(): void
}

export function createAnsweringRelayWallet(
  options: AnsweringRelayWalletOptions,
): AnsweringRelayWallet {
  const keyring = createMemoryKeyring()
  const requests: AnsweringRelayWallet['requests'] = []
  let closeAll = () => {}
  let emit: (params: unknown) => Promise<void> = async () => {
    throw new Error('not paired')
  }
  return {
    requests,
    emit: (params) => emit(params),
    async pairAndApprove(uri) {
      const parsed = parsePairingUri(uri)
      const relay = createRelayClient({
        relayUrl: parsed.relayUrl,
        getToken: createRelayTokenSource({
          baseUrl: baseUrlForRelayUrl(parsed.relayUrl),
          appKey: options.appKey,
        }),
        WebSocket: WebSocket as unknown as WebSocketConstructor,
      })
      const peer = createRelayPeer({ relay, keyring })
      closeAll = () => {
        peer.detach()
        relay.close()
      }
      let sessionTopic: string | null = null
      emit = (params) => peer.notify(sessionTopic ?? '', SESSION_METHODS.event, params)
      const approved = new Promise<void>((resolve, reject) => {
        peer.onRequest((incoming: IncomingRequest) => {
          if (
            incoming.method === SESSION_METHODS.propose &&
            incoming.topic === parsed.pairingTopic
          ) {
            const proposer = (incoming.params as { proposer: { publicKey: string } }).proposer
            const own = generateKeyPair()
            const { symKeyS, topic } = deriveSessionKey(own.privateKey, proposer.publicKey)
            sessionTopic = topic
            peer
              .listen(topic, symKeyS)
              .then(() =>
                peer.respond(incoming, {
                  result: {
                    responder: {
                      publicKey: own.publicKey,
                      metadata: { name: 'Answering wallet', url: 'https://wallet.example' },
                    },
                    namespaces: options.namespaces(),
                    expiry: Math.floor(Date.now() / 1000) + 3600,
                  },
                }),
              )
              .then(resolve, reject)
            return
          }
          if (incoming.method === SESSION_METHODS.request && incoming.topic === sessionTopic) {
            const { chainId, request } = incoming.params as {
              chainId: string
              request: { method: string; params: unknown }
            }
            const call = { method: request.method, params: request.params, chainId }
            requests.push(call)
            Promise.resolve(options.answer(call))
              .then((result) => peer.respond(incoming, { result }))
              .catch(() => undefined)
          }
        })
      })
      await peer.listen(parsed.pairingTopic, parsed.symKeyP)
      await approved
    },
    close: () => closeAll(),
  }
}
