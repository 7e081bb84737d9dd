import { type Hex, isAddressEqual, isHex, numberToHex } from 'viem'
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import type { Eip1193Provider } from '../../connectors/types'
import type { WalletAnswer } from './answers'
import {
  createPromptGate,
  type PromptGate,
  type RecordedRequest,
  type WalletBehaviour,
} from './prompts'

/**
 * A TEST DOUBLE of an EVM browser wallet (EIP-1193): real secp256k1 keys (viem accounts), scripted
 * answers. `eth_accounts`, `eth_chainId` and `wallet_revokePermissions` are answered at once (a
 * real wallet does not prompt for them); every other request is a prompt the script answers.
 */
export interface ScriptedEvmWallet extends Eip1193Provider {
  on(event: string, listener: (...args: never[]) => void): void
  removeListener(event: string, listener: (...args: never[]) => void): void
  /** How the wallet answers prompts from now on (`hold`: they wait for `release`). */
  answer: WalletAnswer | 'hold'
  /** The behaviour of the next prompt only (queued, in order). */
  next(behaviour: WalletBehaviour): void
  /** Answers the latest prompt still held; false when none is. */
  release(answer: WalletAnswer): boolean
  /** Prompts waiting for `release`. */
  readonly held: number
  /** Every request, passive ones included, with the behaviour it met. */
  readonly requests: RecordedRequest[]
  /** The accounts, the active one first. */
  readonly accounts: readonly PrivateKeyAccount[]
  /** The chain the wallet is on (CAIP-2). */
  readonly chainId: string
  /** Every signature the wallet produced (secrets the inspection must never show). */
  readonly signatures: string[]
  /** The wallet UI acts on its own: switches account, switches chain, or locks. */
  act(what: 'changeAccount' | 'changeChain' | 'lock'): void
  /** Announces itself over EIP-6963 on `target` (and again whenever asked); returns the undo. */
  announce(target: EventTarget, rdns: string): () => void
  /** Grants the dApp its accounts, as approving a relay session does. */
  authorize(): void
  /** Runs another prompt of this wallet (a relay session proposal) under the same script. */
  prompt<T>(method: string, params: unknown, perform: () => Promise<T> | T): Promise<T>
}

export interface ScriptedEvmWalletOptions {
  /** Decimal chain ids it can be on, the first the current one; default 1, 10, 8453. */
  chains?: readonly number[]
}

/** The error an EIP-1193 wallet throws: an `Error` with a numeric `code`. */
class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}

/** Accounts by key, derived once (deriving the public key is the costly part; accounts are stateless). */
const derived = /* @__PURE__ */ new Map<Hex, PrivateKeyAccount>()
const accountOf = (key: Hex): PrivateKeyAccount => {
  const account = derived.get(key) ?? privateKeyToAccount(key)
  derived.set(key, account)
  return account
}

/** A scripted EIP-1193 wallet double on `keys` (the first account active); see `createTestWallet`. */
export function createScriptedEvmWallet(
  keys: readonly Hex[],
  options: ScriptedEvmWalletOptions = {},
): ScriptedEvmWallet {
  const chains = options.chains ?? [1, 10, 8453]
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
  const chainHex = () => numberToHex(chains[chain] as number)
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
      chain = (chain + 1) % chains.length
      emit('chainChanged', chainHex())
    } else {
      authorized = false
      emit('accountsChanged', [])
    }
  }
  const gate: PromptGate = createPromptGate({
    fail: (code, message) => new RpcError(code, message),
    act,
  })
  const sign = async (list: unknown[], typed: boolean): Promise<string> => {
    let signature: string
    if (typed) {
      const [address, typedData] = list
      const definition = typeof typedData === 'string' ? JSON.parse(typedData) : typedData
      const { EIP712Domain: _domain, ...types } = definition.types
      signature = await signer(address).signTypedData({ ...definition, types })
    } else {
      const [data, address] = list
      signature = await signer(address).signMessage({
        message: isHex(data) ? { raw: data } : String(data),
      })
    }
    signatures.push(signature)
    return signature
  }

  const wallet: ScriptedEvmWallet = {
    get answer() {
      return gate.answer
    },
    set answer(value) {
      gate.answer = value
    },
    next: (behaviour) => gate.next(behaviour),
    release: (answer) => gate.release(answer),
    get held() {
      return gate.held
    },
    requests: gate.requests,
    accounts,
    get chainId() {
      return `eip155:${chains[chain]}`
    },
    signatures,
    act,
    async request({ method, params }) {
      const list = (Array.isArray(params) ? params : []) as unknown[]
      switch (method) {
        case 'eth_accounts':
          return gate.passive(method, params, addresses)
        case 'eth_chainId':
          return gate.passive(method, params, chainHex)
        case 'wallet_revokePermissions':
          return gate.passive(method, params, () => {
            authorized = false
            return null
          })
        case 'eth_requestAccounts':
          return gate.prompt(method, params, () => {
            authorized = true
            return addresses()
          })
        case 'personal_sign':
          return gate.prompt(method, params, () => sign(list, false))
        case 'eth_signTypedData_v4':
          return gate.prompt(method, params, () => sign(list, true))
        default:
          return gate.prompt(method, params, () => {
            throw new RpcError(4200, `test double: ${method} is not supported`)
          })
      }
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set()
      set.add(listener)
      listeners.set(event, set)
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener)
    },
    prompt: (method, params, perform) => gate.prompt(method, params, perform),
    authorize() {
      authorized = true
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
