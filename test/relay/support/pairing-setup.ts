import WebSocket from 'ws'
import {
  createRelayWalletSimulator,
  type RelayWalletSimulatorOptions,
} from '../../../examples/wallet-simulator/src/relay'
import {
  type PairingHandle,
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
): PairingHandle {
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

/** EIP-712 typed data with a uint256 beyond 2^53 (it travels as a decimal string). */
export const MAIL_TYPED_DATA = {
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'chainId', type: 'uint256' },
    ],
    Mail: [
      { name: 'contents', type: 'string' },
      { name: 'amount', type: 'uint256' },
    ],
  },
  primaryType: 'Mail',
  domain: { name: 'Scope', chainId: 31337 },
  message: { contents: 'hello', amount: 10n ** 20n },
} as const
