/**
 * A WalletConnect wallet for tests: the REAL `@walletconnect/sign-client` on the wallet side, with a
 * viem key, over the relay double (test/support/walletconnect-relay-double.ts). It pairs from a
 * `wc:` URI and answers session requests with real signatures; `mode` makes it reject, error or
 * never answer, for the failure twins.
 *
 * Offline notes (sign-client 2.25): `telemetryEnabled: false` stops the event client's POSTs to
 * pulse.walletconnect.org; echo (push) is only reached by `registerDeviceToken`, never called here;
 * verify: in Node the dApp's `verify.register` returns at once (not a browser), and the wallet's
 * `verify.resolve` fetches `verify.walletconnect.org` with a 5 s abort, which fails fast offline
 * (connection refused / DNS) and leaves the context `UNKNOWN`.
 *
 * sign-client keeps ONE Core per process in `globalThis` (keyed by `customStoragePrefix`); a dApp
 * and a wallet in the same process would share it and steal each other's events. Importing this
 * module sets `DISABLE_GLOBAL_CORE=true`, sign-client's own switch, so each client has its own Core
 * (as in two real processes, and as after a page reload).
 */
process.env.DISABLE_GLOBAL_CORE = 'true'

import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64 } from '@scure/base'
import { SignClient } from '@walletconnect/sign-client'
import { createWalletClient, http, type LocalAccount, type WalletClient } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import type { Client } from '../../src/client'
import type { WalletConnectConnectorOptions } from '../../src/connectors/walletconnect'
import type { Caip2ChainId } from '../../src/registry/types'
import {
  type SolanaKeypair,
  signSerializedTransaction,
} from '../../src/testing/doubles/solana-transaction'
import { broadcastSolanaTransaction } from './solana-cluster'

/** An in-memory sign-client storage (its `IKeyValueStorage`). */
export class MemoryWalletConnectStorage {
  readonly map = new Map<string, unknown>()
  async getKeys(): Promise<string[]> {
    return [...this.map.keys()]
  }
  async getEntries<T = unknown>(): Promise<[string, T][]> {
    return [...this.map.entries()] as [string, T][]
  }
  async getItem<T = unknown>(key: string): Promise<T | undefined> {
    const value = this.map.get(key)
    return value === undefined ? undefined : (structuredClone(value) as T)
  }
  async setItem<T = unknown>(key: string, value: T): Promise<void> {
    this.map.set(key, structuredClone(value))
  }
  async removeItem(key: string): Promise<void> {
    this.map.delete(key)
  }
}

/**
 * `reject`: WalletConnect's 5000; `rejectPhrased`: a generic JSON-RPC error (-32000) whose message
 * says the user rejected, as some Solana wallets answer; `error`: -32000; `hang`: no answer.
 */
export type WalletMode = 'approve' | 'reject' | 'rejectPhrased' | 'error' | 'hang'

export interface TestWalletConnectWallet {
  readonly client: InstanceType<typeof SignClient>
  readonly account: LocalAccount
  /** The wallet's Solana key (a real ed25519 key), used for `solana:` chains in `chains`. */
  readonly solanaKey: SolanaKeypair
  /** How the next proposals and requests are answered. */
  proposals: WalletMode
  requests: WalletMode
  /**
   * How `solana_signTransaction` answers: the signed transaction and its signature (default), the
   * signature alone, or garbage of the right field names (`garbage`: a transaction that is not
   * base64 and a signature that is not 64 base58 bytes; `empty`: `{}`).
   */
  signTransactionAnswer: 'transaction' | 'signature' | 'garbage' | 'empty'
  /** Methods received, in order. */
  readonly received: string[]
  /** The params of each request received, in order (beside `received`). */
  readonly receivedParams: unknown[]
  /**
   * The chains the wallet approves (CAIP-2); default `eip155:<anvil chain>`. `solana:` chains are
   * approved with the Solana key under WalletConnect's `solana` namespace.
   */
  chains: string[]
  /**
   * Rejects the requests left unanswered in `hang` mode (a user dismissing a stale prompt):
   * sign-client's wallet side queues requests, the next one shows only after these are answered.
   */
  rejectHung(): Promise<void>
  pair(uri: string): Promise<void>
  /** Emits `chainChanged` on the session (after a switch). */
  emitChainChanged(topic: string, chainId: string): Promise<void>
  /**
   * Publishes a `wc_sessionEvent` on the session as it is, past the wallet's own checks: a wallet
   * that sends an event the session does not allow.
   */
  sendSessionEvent(
    topic: string,
    params: { event: { name: string; data: unknown }; chainId: string },
  ): Promise<void>
  /** Deletes the session from the wallet side. */
  deleteSession(topic: string): Promise<void>
  close(): Promise<void>
}

const DEFAULT_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'

export async function startWalletConnectWallet(options: {
  relayUrl: string
  rpcUrl?: string
  chainId?: number
  privateKey?: `0x${string}`
  /** The Solana cluster's JSON-RPC URL `solana_signAndSendTransaction` broadcasts to. */
  solanaRpcUrl?: string
}): Promise<TestWalletConnectWallet> {
  const account = privateKeyToAccount(options.privateKey ?? DEFAULT_KEY)
  const solanaSecret = ed25519.utils.randomSecretKey()
  const solanaPublic = ed25519.getPublicKey(solanaSecret)
  const solanaKey: SolanaKeypair = {
    secretKey: solanaSecret,
    publicKey: solanaPublic,
    address: base58.encode(solanaPublic),
  }
  const chainId = options.chainId ?? foundry.id
  const walletClient: WalletClient | undefined = options.rpcUrl
    ? createWalletClient({
        account,
        chain: { ...foundry, id: chainId },
        transport: http(options.rpcUrl),
      })
    : undefined
  const client = await SignClient.init({
    projectId: 'test-project',
    relayUrl: options.relayUrl,
    metadata: { name: 'Test Wallet', description: 'test', url: 'https://wallet.test', icons: [] },
    storage: new MemoryWalletConnectStorage(),
    logger: 'silent',
    telemetryEnabled: false,
  })
  const hung: { id: number; topic: string }[] = []
  const wallet: TestWalletConnectWallet = {
    client,
    account,
    solanaKey,
    proposals: 'approve',
    requests: 'approve',
    signTransactionAnswer: 'transaction',
    received: [],
    receivedParams: [],
    chains: [`eip155:${chainId}`],
    rejectHung: async () => {
      for (const { id, topic } of hung.splice(0)) {
        await client.respond({
          topic,
          response: { id, jsonrpc: '2.0', error: { code: 5000, message: 'User rejected.' } },
        })
      }
    },
    pair: async (uri) => {
      await client.pair({ uri })
    },
    emitChainChanged: async (topic, chain) => {
      await client.emit({
        topic,
        chainId: chain,
        event: { name: 'chainChanged', data: Number(chain.split(':')[1]) },
      })
    },
    sendSessionEvent: async (topic, params) => {
      const request = {
        id: Date.now() * 1000 + Math.floor(Math.random() * 1000),
        jsonrpc: '2.0',
        method: 'wc_sessionEvent',
        params,
      }
      const message = await client.core.crypto.encode(topic, request)
      await client.core.relayer.publish(topic, message, { ttl: 300, tag: 1110 })
    },
    deleteSession: async (topic) => {
      await client.disconnect({ topic, reason: { code: 6000, message: 'User disconnected.' } })
    },
    close: async () => {
      await client.core.relayer.transportClose().catch(() => {})
    },
  }

  client.on('session_proposal', async ({ id, params }) => {
    if (wallet.proposals === 'hang') return
    if (wallet.proposals === 'reject') {
      await client.reject({ id, reason: { code: 5000, message: 'User rejected.' } })
      return
    }
    const namespaces: Record<
      string,
      { chains: string[]; accounts: string[]; methods: string[]; events: string[] }
    > = {}
    for (const name of ['eip155', 'solana'] as const) {
      const proposed = params.optionalNamespaces[name] ?? params.requiredNamespaces[name]
      const chains = wallet.chains.filter((c) => c.startsWith(`${name}:`))
      if (!proposed || chains.length === 0) continue
      const address = name === 'eip155' ? account.address : solanaKey.address
      namespaces[name] = {
        chains,
        accounts: chains.map((c) => `${c}:${address}`),
        methods: proposed.methods ?? [],
        events: proposed.events ?? [],
      }
    }
    await client.approve({ id, namespaces })
  })

  const broadcast = (signed: Uint8Array): Promise<string> => {
    if (!options.solanaRpcUrl) throw new Error('no solanaRpcUrl for solana_signAndSendTransaction')
    return broadcastSolanaTransaction(options.solanaRpcUrl, signed)
  }

  client.on('session_request', async ({ id, topic, params }) => {
    const { method, params: args } = params.request as { method: string; params: unknown[] }
    wallet.received.push(method)
    wallet.receivedParams.push(args)
    if (wallet.requests === 'hang') {
      hung.push({ id, topic })
      return
    }
    if (wallet.requests === 'reject') {
      await client.respond({
        topic,
        response: { id, jsonrpc: '2.0', error: { code: 5000, message: 'User rejected.' } },
      })
      return
    }
    if (wallet.requests === 'rejectPhrased') {
      await client.respond({
        topic,
        response: {
          id,
          jsonrpc: '2.0',
          error: { code: -32000, message: 'User rejected the request.' },
        },
      })
      return
    }
    if (wallet.requests === 'error') {
      await client.respond({
        topic,
        response: { id, jsonrpc: '2.0', error: { code: -32000, message: 'Internal wallet error' } },
      })
      return
    }
    let result: unknown
    switch (method) {
      // WalletConnect's Solana RPC: `{ message (base58), pubkey }` → `{ signature (base58) }`.
      case 'solana_signMessage': {
        const { message } = args as unknown as { message: string }
        result = {
          signature: base58.encode(ed25519.sign(base58.decode(message), solanaKey.secretKey)),
        }
        break
      }
      // `{ transaction (base64), pubkey }` → `{ signature, transaction }` (the signed transaction,
      // base64), as WalletConnect's Solana RPC reference answers; `{ signature }` alone in
      // `signTransactionAnswer: 'signature'` (the older answer some wallets still give).
      case 'solana_signTransaction': {
        const { transaction } = args as unknown as { transaction: string }
        const signed = signSerializedTransaction(base64.decode(transaction), solanaKey)
        const signature = base58.encode(signed.slice(1, 65))
        result = {
          transaction: { signature, transaction: base64.encode(signed) },
          signature: { signature },
          garbage: { signature: 'not-a-signature', transaction: '%%% not base64 %%%' },
          empty: {},
        }[wallet.signTransactionAnswer]
        break
      }
      // `{ transaction (base64) }` → `{ signature }`, the transaction signed and broadcast.
      case 'solana_signAndSendTransaction': {
        const { transaction } = args as unknown as { transaction: string }
        const signed = signSerializedTransaction(base64.decode(transaction), solanaKey)
        result = { signature: await broadcast(signed) }
        break
      }
      case 'personal_sign':
        result = await account.signMessage({ message: { raw: args[0] as `0x${string}` } })
        break
      case 'eth_signTypedData_v4': {
        const typed = JSON.parse(args[1] as string)
        const { EIP712Domain: _, ...types } = typed.types
        result = await account.signTypedData({ ...typed, types })
        break
      }
      case 'eth_sendTransaction': {
        if (!walletClient) throw new Error('no rpcUrl for eth_sendTransaction')
        const tx = args[0] as { to: `0x${string}`; value?: `0x${string}`; data?: `0x${string}` }
        result = await walletClient.sendTransaction({
          account,
          chain: walletClient.chain,
          to: tx.to,
          ...(tx.value ? { value: BigInt(tx.value) } : {}),
          ...(tx.data ? { data: tx.data } : {}),
        })
        break
      }
      case 'wallet_switchEthereumChain': {
        const target = `eip155:${Number.parseInt((args[0] as { chainId: string }).chainId, 16)}`
        if (!wallet.chains.includes(target)) {
          await client.respond({
            topic,
            response: { id, jsonrpc: '2.0', error: { code: 4902, message: 'Unrecognized chain' } },
          })
          return
        }
        result = null
        await client.respond({ topic, response: { id, jsonrpc: '2.0', result } })
        // The dApp may have ended the session meanwhile: sign-client refuses the emit then.
        await wallet.emitChainChanged(topic, target).catch(() => {})
        return
      }
      default:
        await client.respond({
          topic,
          response: { id, jsonrpc: '2.0', error: { code: 4200, message: `Unsupported ${method}` } },
        })
        return
    }
    await client.respond({ topic, response: { id, jsonrpc: '2.0', result } })
  })
  return wallet
}

/** The dApp metadata of the tests' WalletConnect connectors. */
export const TEST_DAPP_METADATA = {
  name: 'Test dApp',
  description: 'test',
  url: 'https://dapp.test',
  icons: [],
}

/** A test dApp's WalletConnect options on `relayUrl`: the real sign-client, a fresh storage unless given. */
export function testWalletConnectOptions(
  relayUrl: string,
  chains: Caip2ChainId[],
  extra: Partial<WalletConnectConnectorOptions> = {},
): WalletConnectConnectorOptions {
  return {
    projectId: 'test-project',
    metadata: TEST_DAPP_METADATA,
    relayUrl,
    chains,
    storage: new MemoryWalletConnectStorage(),
    importSignClient: () => import('@walletconnect/sign-client'),
    ...extra,
  }
}

/**
 * The wallet "scans" the QR code (or opens the deep link): it pairs from each new `pairingUri` the
 * client's view shows. The URIs seen, in order.
 */
export function pairFromView(client: Client, wallet: TestWalletConnectWallet): string[] {
  const uris: string[] = []
  client.subscribe((view) => {
    const uri = view.pairingUri
    if (uri && !uris.includes(uri)) {
      uris.push(uri)
      void wallet.pair(uri)
    }
  })
  return uris
}
