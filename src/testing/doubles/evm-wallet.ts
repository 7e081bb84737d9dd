import { type Hex, isAddressEqual, isHex, keccak256, numberToHex } from 'viem'
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import type { Eip1193Provider } from '../../connectors/types'
import { checkArgument } from '../arguments'
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

/**
 * A scripted EIP-1193 wallet double on `keys` (the first account active); see `createTestWallet`.
 *
 * @throws AppError `INVALID_CONFIG` when `keys` are not 32-byte 0x-hex private keys, or
 * `options.chains` not a non-empty list of positive integers.
 */
export function createScriptedEvmWallet(
  keys: readonly Hex[],
  options: ScriptedEvmWalletOptions = {},
): ScriptedEvmWallet {
  checkArgument('evmKeys', keys, 'createScriptedEvmWallet keys')
  checkArgument('evmOptions', options, 'createScriptedEvmWallet options')
  const chains = options.chains ?? [1, 10, 8453]
  /** Chains the dApp added (`wallet_addEthereumChain`): known, outside the rotation of `changeChain`. */
  const added = new Set<number>()
  const accounts = keys.map(accountOf)
  const listeners = new Map<string, Set<(...args: never[]) => void>>()
  const signatures: string[] = []
  const sentTransactions: Hex[] = []
  let authorized = false
  let current = chains[0] as number
  const emit = (event: string, ...args: unknown[]) => {
    for (const listener of [...(listeners.get(event) ?? [])])
      (listener as (...values: unknown[]) => void)(...args)
  }
  const addresses = () => (authorized ? accounts.map((a) => a.address) : [])
  const chainHex = () => numberToHex(current)
  const knows = (id: number) => chains.includes(id) || added.has(id)
  const switchTo = (id: number) => {
    if (id === current) return
    current = id
    emit('chainChanged', chainHex())
  }
  const requestedChain = (list: unknown[]) =>
    Number.parseInt(String((list[0] as { chainId?: unknown } | undefined)?.chainId ?? ''), 16)
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
      // From an added chain, back to the first of the rotation.
      switchTo(chains[(chains.indexOf(current) + 1) % chains.length] as number)
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

  /** Signs the transaction with the sender's key and answers its hash (nothing is broadcast). */
  const sendTransaction = async (list: unknown[]): Promise<Hex> => {
    const tx = (list[0] ?? {}) as { from?: string; to?: Hex; value?: Hex; data?: Hex }
    const account = signer(tx.from ?? accounts[0]?.address)
    const signed = await account.signTransaction({
      chainId: current,
      to: tx.to ?? null,
      value: tx.value ? BigInt(tx.value) : 0n,
      ...(tx.data ? { data: tx.data } : {}),
      nonce: sentTransactions.length,
      gas: 21_000n,
      maxFeePerGas: 1_000_000_000n,
      maxPriorityFeePerGas: 1_000_000n,
    })
    const hash = keccak256(signed)
    sentTransactions.push(hash)
    return hash
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
      return `eip155:${current}`
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
        case 'wallet_switchEthereumChain': {
          const id = requestedChain(list)
          // Already there: nothing to ask. Unknown: 4902 at once, as MetaMask does.
          if (id === current) return gate.passive(method, params, () => null)
          if (!knows(id))
            return gate.passive(method, params, () => {
              throw new RpcError(4902, `Unrecognized chain ID ${numberToHex(id)}.`)
            })
          return gate.prompt(method, params, () => {
            switchTo(id)
            return null
          })
        }
        case 'wallet_addEthereumChain':
          // Adding switches to the chain, as most wallets do.
          return gate.prompt(method, params, () => {
            const id = requestedChain(list)
            added.add(id)
            switchTo(id)
            return null
          })
        case 'eth_sendTransaction':
          return gate.prompt(method, params, () => sendTransaction(list))
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
