import { type Hex, isAddressEqual, isHex, numberToHex } from 'viem'
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import type { Eip1193Provider, RequestArgs } from '../../../src/connectors/types'
import { never, type WalletAnswer } from './answers'

/** A TEST DOUBLE of an EVM browser wallet (EIP-1193): real secp256k1 keys (viem), scripted answers. */
export interface ScriptedEvmWallet extends Eip1193Provider {
  on(event: string, listener: (...args: never[]) => void): void
  removeListener(event: string, listener: (...args: never[]) => void): void
  /** How the wallet answers from now on. */
  answer: WalletAnswer
  readonly accounts: readonly PrivateKeyAccount[]
  /** Every signature the wallet produced (secrets the inspection must never show). */
  readonly signatures: string[]
  /** The wallet UI acts on its own: switches account, switches chain, or locks. */
  act(what: 'changeAccount' | 'changeChain' | 'lock'): void
  /** Announces itself over EIP-6963 on `target` (and again whenever asked); returns the undo. */
  announce(target: EventTarget, rdns: string): () => void
}

const CHAINS = [1, 10, 8453] as const

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}

/** Accounts by key, derived once (deriving the public key is the costly part; accounts are stateless). */
const derived = new Map<Hex, PrivateKeyAccount>()
const accountOf = (key: Hex): PrivateKeyAccount => {
  const account = derived.get(key) ?? privateKeyToAccount(key)
  derived.set(key, account)
  return account
}

export function createScriptedEvmWallet(keys: readonly Hex[]): ScriptedEvmWallet {
  const accounts = keys.map(accountOf)
  const listeners = new Map<string, Set<(...args: never[]) => void>>()
  const signatures: string[] = []
  let authorized = false
  let chain = 0
  const emit = (event: string, ...args: unknown[]) => {
    for (const listener of [...(listeners.get(event) ?? [])])
      (listener as (...values: unknown[]) => void)(...args)
  }
  const addresses = () => (authorized ? accounts.map((a) => a.address) : [])
  const signer = (address: unknown): PrivateKeyAccount => {
    const account = accounts.find(
      (a) => typeof address === 'string' && isHex(address) && isAddressEqual(a.address, address),
    )
    if (!account || !authorized) throw new RpcError(4100, 'The account is not authorized.')
    return account
  }
  const act: ScriptedEvmWallet['act'] = (what) => {
    if (what === 'changeAccount') {
      accounts.push(accounts.shift() as PrivateKeyAccount)
      if (authorized) emit('accountsChanged', addresses())
    } else if (what === 'changeChain') {
      chain = (chain + 1) % CHAINS.length
      emit('chainChanged', numberToHex(CHAINS[chain] as number))
    } else {
      authorized = false
      emit('accountsChanged', [])
    }
  }
  const answerFor = async ({ method, params }: RequestArgs): Promise<unknown> => {
    const list = (Array.isArray(params) ? params : []) as unknown[]
    switch (method) {
      case 'eth_requestAccounts':
        authorized = true
        return addresses()
      case 'eth_accounts':
        return addresses()
      case 'eth_chainId':
        return numberToHex(CHAINS[chain] as number)
      case 'personal_sign': {
        const [data, address] = list
        const signature = await signer(address).signMessage({
          message: isHex(data) ? { raw: data } : String(data),
        })
        signatures.push(signature)
        return signature
      }
      case 'eth_signTypedData_v4': {
        const [address, typedData] = list
        const definition = typeof typedData === 'string' ? JSON.parse(typedData) : typedData
        const { EIP712Domain: _domain, ...types } = definition.types
        const signature = await signer(address).signTypedData({ ...definition, types })
        signatures.push(signature)
        return signature
      }
      case 'wallet_revokePermissions':
        authorized = false
        return null
      default:
        throw new RpcError(4200, `test double: ${method} is not supported`)
    }
  }
  const wallet: ScriptedEvmWallet = {
    answer: 'approve',
    accounts,
    signatures,
    act,
    async request(args) {
      const answer = wallet.answer
      // Passive reads are answered whatever the user does (a real wallet does not prompt for them).
      const passive = args.method === 'eth_accounts' || args.method === 'eth_chainId'
      if (!passive) {
        if (answer === 'hang') return never()
        if (answer === 'reject') throw new RpcError(4001, 'User rejected the request.')
        if (answer === 'error') throw new RpcError(-32603, 'Internal wallet error.')
        if (answer === 'lock') {
          act('lock')
          throw new RpcError(4100, 'The wallet is locked.')
        }
      }
      const result = await answerFor(args)
      if (!passive && (answer === 'changeAccount' || answer === 'changeChain'))
        queueMicrotask(() => act(answer))
      return result
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set()
      set.add(listener)
      listeners.set(event, set)
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener)
    },
    announce(target, rdns) {
      const detail = Object.freeze({
        info: { uuid: `uuid-${rdns}-${accounts[0]?.address}`, name: rdns, icon: 'data:,', rdns },
        provider: wallet,
      })
      const send = () =>
        target.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
      target.addEventListener('eip6963:requestProvider', send)
      send()
      return () => target.removeEventListener('eip6963:requestProvider', send)
    },
  }
  return wallet
}
