import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import {
  createRelayWallet,
  type PeerMetadata,
  type RelayWallet,
  type RelayWalletOptions,
  type SessionProposal,
  type WalletSession,
  type WalletSessionRequest,
} from 'scope-connect/wallet'
import { createWalletClient, type Hex, http, type LocalAccount } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

/**
 * A reference wallet for relay pairing, built on `scope-connect/wallet` as a wallet team would:
 * it pairs from a URI, approves with its accounts (or rejects), and answers `personal_sign` and
 * `eth_signTypedData_v4` with a real viem key and `solana_signMessage` with a real ed25519 key.
 * Used by the end-to-end tests and the pairing bench.
 */
export interface RelayWalletSimulatorOptions extends Omit<RelayWalletOptions, 'metadata'> {
  /** 0x-hex secp256k1 key; anvil's second dev account when absent. */
  evmPrivateKey?: Hex
  /** The EVM node `eth_sendTransaction` broadcasts to (signed with the key); absent: refused (4200). */
  evmRpcUrl?: string
  /** 32-byte ed25519 secret key; a fresh one when absent. */
  solanaSecretKey?: Uint8Array
  metadata?: PeerMetadata
  /** The user's answer to each request (may wait for a click); default approve. */
  decide?: (request: WalletSessionRequest) => 'approve' | 'reject' | Promise<'approve' | 'reject'>
}

export interface RelayWalletSimulator {
  wallet: RelayWallet
  evm: LocalAccount
  solanaAddress: string
  /** Every request answered, in order. */
  requests: WalletSessionRequest[]
  /** Pairs and approves the proposal with its accounts on the required chains. */
  pairAndApprove(uri: string): Promise<{ proposal: SessionProposal; session: WalletSession }>
  /** Approves a proposal (from `wallet.pair(uri)`) with its accounts on the required chains. */
  approve(proposal: SessionProposal): Promise<WalletSession>
  close(): void
}

const ANVIL_ACCOUNT_1: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'

/**
 * Accounts and addresses by given key, derived once: deriving costs milliseconds, and the fault
 * property makes a simulator on the same keys for every pairing URI it scans. Accounts are stateless.
 */
const evmAccounts = new Map<Hex, LocalAccount>()
const solanaAddresses = new Map<string, string>()

function evmAccountOf(key: Hex): LocalAccount {
  const account = evmAccounts.get(key) ?? privateKeyToAccount(key)
  evmAccounts.set(key, account)
  return account
}

function solanaAddressOf(secretKey: Uint8Array): string {
  const id = base58.encode(secretKey)
  const address = solanaAddresses.get(id) ?? base58.encode(ed25519.getPublicKey(secretKey))
  solanaAddresses.set(id, address)
  return address
}

export function createRelayWalletSimulator(
  options: RelayWalletSimulatorOptions,
): RelayWalletSimulator {
  const evm = evmAccountOf(options.evmPrivateKey ?? ANVIL_ACCOUNT_1)
  const solanaSecret = options.solanaSecretKey ?? ed25519.utils.randomSecretKey()
  // A fresh key is used once: not kept.
  const solanaAddress = options.solanaSecretKey
    ? solanaAddressOf(solanaSecret)
    : base58.encode(ed25519.getPublicKey(solanaSecret))
  const wallet = createRelayWallet({
    ...options,
    metadata: options.metadata ?? { name: 'Wallet Simulator', url: 'https://wallet.example' },
  })
  const requests: WalletSessionRequest[] = []

  wallet.onRequest(async (request) => {
    requests.push(request)
    if (((await options.decide?.(request)) ?? 'approve') === 'reject') {
      throw { code: 4001, message: 'User rejected the request.' }
    }
    switch (request.method) {
      case 'personal_sign':
        return evm.signMessage({ message: { raw: request.params[0] as Hex } })
      case 'eth_signTypedData_v4': {
        const { types, primaryType, domain, message } = JSON.parse(request.params[1])
        const { EIP712Domain: _domainType, ...rest } = types
        return evm.signTypedData({ types: rest, primaryType, domain, message })
      }
      case 'solana_signMessage': {
        const signature = ed25519.sign(base58.decode(request.params.message), solanaSecret)
        return { signature: base58.encode(signature) }
      }
      case 'eth_sendTransaction': {
        if (!options.evmRpcUrl) break
        const [tx] = request.params
        const quantity = (value: string | undefined) =>
          value === undefined ? undefined : BigInt(value)
        // Signed with the wallet's key, broadcast raw: the dApp never sees the key or the node.
        return createWalletClient({
          account: evm,
          transport: http(options.evmRpcUrl),
        }).sendTransaction({
          chain: null,
          ...(tx.to ? { to: tx.to as Hex } : {}),
          ...(tx.data ? { data: tx.data as Hex } : {}),
          value: quantity(tx.value),
          gas: quantity(tx.gas),
          ...(tx.nonce === undefined ? {} : { nonce: Number(tx.nonce) }),
        } as Parameters<ReturnType<typeof createWalletClient>['sendTransaction']>[0])
      }
    }
    throw { code: 4200, message: `${request.method} is not supported by the simulator.` }
  })

  async function approve(proposal: SessionProposal): Promise<WalletSession> {
    const namespaces: Record<
      string,
      { accounts: string[]; methods?: string[]; chains?: string[] }
    > = {}
    for (const [name, wanted] of Object.entries(proposal.requiredNamespaces)) {
      const chains = wanted.chains ?? []
      const address = name === 'solana' ? solanaAddress : evm.address
      namespaces[name] = {
        chains,
        accounts: chains.map((chain) => `${chain}:${address}`),
        ...(wanted.methods ? { methods: wanted.methods } : {}),
      }
    }
    return proposal.approve({ namespaces })
  }

  return {
    wallet,
    evm,
    solanaAddress,
    requests,
    async pairAndApprove(uri) {
      const proposal = await wallet.pair(uri)
      return { proposal, session: await approve(proposal) }
    },
    approve,
    close: () => wallet.close(),
  }
}
