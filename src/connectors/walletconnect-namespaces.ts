import { base58 } from '@scure/base'
import { AppError } from '../errors/app-error'
import { invalidArgument, safeText } from '../errors/arguments'
import type { Caip2ChainId, ChainNamespace } from '../registry/types'
import type { RequestArgs } from './types'
import type {
  WalletConnectNamespaceProposal,
  WalletConnectSession,
} from './walletconnect-sign-client'

/** The EVM methods the connector proposes (WalletConnect's eip155 namespace). */
export const WALLETCONNECT_EIP155_METHODS = [
  'personal_sign',
  'eth_signTypedData_v4',
  'eth_sendTransaction',
  'wallet_switchEthereumChain',
  'wallet_addEthereumChain',
] as const

/** The EVM session events the connector listens to. */
export const WALLETCONNECT_EIP155_EVENTS = ['chainChanged', 'accountsChanged'] as const

/** WalletConnect's Solana method names (its `solana` namespace). */
export const WALLETCONNECT_SOLANA_METHODS = [
  'solana_signMessage',
  'solana_signTransaction',
  'solana_signAndSendTransaction',
] as const

/**
 * `optionalNamespaces` for `chains` (CAIP-2, grouped by namespace): eip155 and solana with the
 * methods and events above.
 * @throws {AppError} `UNSUPPORTED_CHAIN` for a chain outside eip155 and solana (or not a string),
 * or none at all; `INVALID_CONFIG` when `chains` is not an array.
 */
export function walletConnectNamespaces(
  chains: readonly Caip2ChainId[],
): Record<string, WalletConnectNamespaceProposal> {
  if (!Array.isArray(chains)) throw invalidArgument('chains', 'must be an array of CAIP-2 ids')
  if (chains.length === 0) throw new AppError('UNSUPPORTED_CHAIN', 'WalletConnect needs a chain.')
  const namespaces: Record<string, WalletConnectNamespaceProposal> = {}
  for (const chain of chains) {
    const namespace = namespaceOf(chain)
    const entry = namespaces[namespace] ?? proposalFor(namespace)
    namespaces[namespace] = entry
    if (!entry.chains.includes(chain)) entry.chains.push(chain)
  }
  return namespaces
}

function proposalFor(namespace: ChainNamespace): WalletConnectNamespaceProposal {
  return namespace === 'eip155'
    ? {
        chains: [],
        methods: [...WALLETCONNECT_EIP155_METHODS],
        events: [...WALLETCONNECT_EIP155_EVENTS],
      }
    : { chains: [], methods: [...WALLETCONNECT_SOLANA_METHODS], events: [] }
}

/** `eip155` or `solana` of a CAIP-2 id. @throws {AppError} `UNSUPPORTED_CHAIN` otherwise. */
export function namespaceOf(chain: string): ChainNamespace {
  const namespace = typeof chain === 'string' ? chain.split(':')[0] : undefined
  if (namespace === 'eip155' || namespace === 'solana') return namespace
  throw new AppError('UNSUPPORTED_CHAIN', `WalletConnect: unsupported chain ${safeText(chain)}.`)
}

/**
 * The accounts and chain a session gives on `namespace`: CAIP-10 accounts
 * (`eip155:1:0xabc…`) of the first chain the wallet approved, preferring `preferred`.
 * Null when the session has no account there.
 */
export function sessionAccounts(
  session: WalletConnectSession,
  namespace: ChainNamespace,
  preferred?: string,
): { chainId: Caip2ChainId; accounts: string[] } | null {
  const accounts = session.namespaces[namespace]?.accounts ?? []
  const parsed = accounts.map(splitAccount).filter((a) => a !== null)
  if (parsed.length === 0) return null
  const chainId = parsed.some((a) => a.chain === preferred)
    ? (preferred as Caip2ChainId)
    : (parsed[0]?.chain as Caip2ChainId)
  const onChain = parsed.filter((a) => a.chain === chainId).map((a) => a.address)
  return { chainId, accounts: [...new Set(onChain)] }
}

function splitAccount(caip10: string): { chain: string; address: string } | null {
  const at = caip10.lastIndexOf(':')
  if (at <= 0) return null
  return { chain: caip10.slice(0, at), address: caip10.slice(at + 1) }
}

/**
 * The WalletConnect request for a Client request on Solana, and how to read its answer back into
 * the shape the Solana connectors return (`SolanaSignMessageResult`, …).
 * @throws {AppError} `WALLET_ERROR` for a method WalletConnect's Solana namespace lacks or params
 * that are not `{ message: string }` / `{ transaction: string }`.
 */
export function toWalletConnectSolanaRequest(
  args: RequestArgs,
  address: string,
): { request: { method: string; params: unknown }; read: (answer: unknown) => unknown } {
  const params = (args.params ?? {}) as Record<string, unknown>
  switch (args.method) {
    case 'solana_signMessage': {
      const message = stringParam(params, 'message')
      return {
        request: {
          method: 'solana_signMessage',
          params: { message: base58.encode(new TextEncoder().encode(message)), pubkey: address },
        },
        read: (answer) => ({ signature: answerField(answer, 'signature'), publicKey: address }),
      }
    }
    case 'solana_signTransaction': {
      // WalletConnect's Solana RPC: `{ transaction (base64), pubkey }` → `{ signature (base58),
      // transaction? (the signed transaction, base64) }`; older wallets answer the signature alone.
      const transaction = stringParam(params, 'transaction')
      return {
        request: { method: 'solana_signTransaction', params: { transaction, pubkey: address } },
        read: (answer) => {
          const signed = (answer as Record<string, unknown> | null)?.transaction
          return typeof signed === 'string'
            ? { signedTransaction: signed }
            : { signature: answerField(answer, 'signature') }
        },
      }
    }
    case 'solana_signAndSendTransaction': {
      const transaction = stringParam(params, 'transaction')
      return {
        request: { method: 'solana_signAndSendTransaction', params: { transaction } },
        read: (answer) => ({ signature: answerField(answer, 'signature') }),
      }
    }
    default:
      throw new AppError('WALLET_ERROR', `Method ${args.method} is not supported on Solana.`)
  }
}

function stringParam(params: Record<string, unknown>, key: string): string {
  const value = params[key]
  if (typeof value !== 'string')
    throw new AppError('WALLET_ERROR', `WalletConnect Solana request: "${key}" must be a string.`)
  return value
}

function answerField(answer: unknown, key: string): string {
  const value = (answer as Record<string, unknown> | null)?.[key]
  if (typeof value !== 'string')
    throw new AppError('WALLET_ERROR', `The wallet's answer has no "${key}".`)
  return value
}
