import WebSocket from 'ws'
import {
  createRelayWalletSimulator,
  type RelayWalletSimulatorOptions,
} from '../../../examples/wallet-simulator/src/relay'
import {
  type PairingFlow,
  type PairingOptions,
  startPairing,
} from '../../../machines/pairing/pairing.facade'
import type { TestServer } from '../../../server/test/support/server'
import type { WebSocketConstructor } from '../../../src/relay/client/websocket'

export const DAPP_METADATA = { name: 'Example dApp', url: 'https://dapp.example' }
export const WS = WebSocket as unknown as WebSocketConstructor

export const EVM_NAMESPACES = {
  eip155: {
    chains: ['eip155:31337'],
    methods: ['personal_sign', 'eth_signTypedData_v4'],
    events: ['accountsChanged'],
  },
}

/** A dApp pairing flow against the real server's relay (token from its route, `ws` in Node). */
export function dappPairing(
  server: Pick<TestServer, 'baseUrl' | 'appKey'>,
  overrides: Partial<PairingOptions> = {},
): PairingFlow {
  return startPairing({
    baseUrl: server.baseUrl,
    appKey: server.appKey,
    WebSocket: WS,
    requiredNamespaces: EVM_NAMESPACES,
    metadata: DAPP_METADATA,
    ...overrides,
  })
}

/** The example wallet (scope-connect/wallet + viem key) against the same backend. */
export function walletSimulator(
  server: Pick<TestServer, 'appKey'>,
  overrides: Partial<RelayWalletSimulatorOptions> = {},
) {
  return createRelayWalletSimulator({ appKey: server.appKey, WebSocket: WS, ...overrides })
}
