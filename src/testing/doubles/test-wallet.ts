import { getWallets } from '@wallet-standard/app'
import type { Wallet } from '@wallet-standard/base'
import type { Hex } from 'viem'
import { Eip1193Connector } from '../../connectors/eip1193'
import { SolanaInjectedConnector } from '../../connectors/solana-injected'
import type { IWalletConnector } from '../../connectors/types'
import type { WebSocketConstructor } from '../../relay/client/websocket'
import { createRelayWallet, type RelayWallet } from '../../wallet/relay-wallet'
import { checkArgument } from '../arguments'
import type { WalletAnswer } from './answers'
import { createScriptedEvmWallet, type ScriptedEvmWallet } from './evm-wallet'
import { TEST_EVM_KEYS, TEST_SOLANA_KEYS } from './keys'
import { createPhoneWallet } from './phone-wallet'
import type { RecordedRequest, WalletBehaviour } from './prompts'
import { createScriptedSolanaWallet } from './solana-wallet'

/** Options of `createTestWallet`. */
export interface TestWalletOptions {
  namespace: 'eip155' | 'solana'
  /**
   * The key of the first account (0x-hex secp256k1, or a 32-byte ed25519 secret); default a fixed
   * test key (`TEST_EVM_KEYS`, `TEST_SOLANA_KEYS`). A second fixed account follows it, for account changes.
   */
  privateKey?: Hex | Uint8Array
  /** EVM: decimal chain ids (the first current); Solana: CAIP-2 chains. */
  chains?: readonly (number | `${string}:${string}`)[]
  /** Wallet id (the registry's: `metamask`, `phantom`); default `metamask` / `phantom`. */
  walletId?: string
  /** Wallet Standard name (Solana); default `Phantom`. */
  name?: string
}

/**
 * A wallet for tests, with real keys: an EIP-1193 provider (viem accounts) or a Wallet Standard
 * wallet (@noble ed25519). Every prompt (connect, sign) is scripted — `answer` for all, `next` for
 * the next one, `hold` to keep it open until `release` — and every request is recorded.
 */
export interface TestWallet {
  namespace: 'eip155' | 'solana'
  walletId: string
  /** The active account's address. */
  readonly address: string
  /** EVM: the EIP-1193 provider. Solana: the Wallet Standard wallet. */
  provider: ScriptedEvmWallet | Wallet
  /** How prompts are answered from now on (default `approve`; `hold`: open until `release`). */
  answer: WalletAnswer | 'hold'
  next(behaviour: WalletBehaviour): void
  /** Answers the latest prompt still open; false when none is. */
  release(answer: WalletAnswer): boolean
  readonly held: number
  readonly requests: RecordedRequest[]
  /** The wallet acts on its own: switches account, switches chain, locks. */
  act(what: 'changeAccount' | 'changeChain' | 'lock'): void
  /**
   * Makes the wallet findable, as an installed extension: EVM announces itself over EIP-6963 on
   * `target` (default `window`) and answers every `eip6963:requestProvider`; Solana registers with
   * the Wallet Standard. Returns the undo.
   */
  announce(target?: EventTarget, rdns?: string): () => void
  /** A connector for `ClientOptions.connectors` bound to this wallet (`selectWallet(walletId)`). */
  connector(): IWalletConnector
  /**
   * EVM: reads a pairing URI as a phone wallet scanning the QR code would, over the relay
   * (`scope-connect/wallet`). The proposal is a prompt (approve: a session with the active account
   * on the chains asked for; reject: 4001); each request over the session is a prompt too. Resolves
   * once the proposal is answered; `unpair()` closes the relay connection.
   */
  pair(uri: string, relay: TestWalletRelay): Promise<void>
  unpair(): void
  /**
   * Solana (the mobile flow's wallets): answers a universal link the dApp opened as the phone wallet would (`createPhoneWallet`
   * with this wallet's key and its id as the slug: create it with `walletId: TEST_PARTNER_WALLET_ID`,
   * since only a partner answers `sc*` links): the connect callback with its address (a `signMessage` link: the
   * sign callback, the session envelope signed), a rejection or a failure of the wallet app,
   * posted to the link's callback with its nonce. Resolves with the backend's
   * status code (204 when taken).
   */
  answerLink(
    link: string,
    behaviour: 'approve' | 'reject' | 'error',
    fetchImpl?: typeof fetch,
  ): Promise<number>
}

/** Where a test wallet reaches the relay: the backend (for its token) and the socket class. */
export interface TestWalletRelay {
  baseUrl: string
  appKey: string
  WebSocket?: WebSocketConstructor
  fetchImpl?: typeof fetch
}

const isHexKey = (key: Hex | Uint8Array | undefined): key is Hex => typeof key === 'string'

/**
 * A wallet with real keys whose every prompt is scripted (see `TestWallet`).
 *
 * @throws AppError `INVALID_CONFIG` when `options.namespace` is neither `eip155` nor `solana`, or
 * `privateKey`, `chains`, `walletId` or `name` is of the wrong type (the field is named).
 */
export function createTestWallet(options: TestWalletOptions): TestWallet {
  checkArgument('testWalletOptions', options, 'createTestWallet options')
  if (options.namespace === 'eip155') {
    const keys = [
      isHexKey(options.privateKey) ? options.privateKey : TEST_EVM_KEYS[0],
      TEST_EVM_KEYS[1],
    ]
    const chains = options.chains?.map((chain) =>
      typeof chain === 'number' ? chain : Number(chain.split(':')[1]),
    )
    const evm = createScriptedEvmWallet(keys as Hex[], chains ? { chains } : {})
    const walletId = options.walletId ?? 'metamask'
    let relayWallet: RelayWallet | null = null
    return {
      namespace: 'eip155',
      walletId,
      get address() {
        return evm.accounts[0]?.address ?? ''
      },
      provider: evm,
      get answer() {
        return evm.answer
      },
      set answer(value) {
        evm.answer = value
      },
      next: (behaviour) => evm.next(behaviour),
      release: (answer) => evm.release(answer),
      get held() {
        return evm.held
      },
      requests: evm.requests,
      act: (what) => evm.act(what),
      announce: (target = globalThis as unknown as EventTarget, rdns = 'io.metamask') =>
        evm.announce(target, rdns),
      connector: () => new Eip1193Connector(walletId, () => evm),
      async pair(uri, relay) {
        relayWallet?.close()
        relayWallet = createRelayWallet({
          ...relay,
          metadata: { name: 'Test Wallet', url: 'https://wallet.test' },
        })
        relayWallet.onRequest((request) => evm.request(request as never))
        const proposal = await relayWallet.pair(uri)
        const account = evm.accounts[0]?.address ?? ''
        await evm
          .prompt('session_proposal', proposal.requiredNamespaces, async () => {
            const namespaces: Record<
              string,
              { accounts: string[]; chains: string[]; methods?: string[] }
            > = {}
            for (const [name, wanted] of Object.entries(proposal.requiredNamespaces)) {
              const chains = [...(wanted.chains ?? [])]
              namespaces[name] = {
                chains,
                accounts: chains.map((chain) => `${chain}:${account}`),
                ...(wanted.methods ? { methods: [...wanted.methods] } : {}),
              }
            }
            evm.authorize()
            await proposal.approve({ namespaces })
          })
          .catch((error: { code?: number }) =>
            proposal.reject(error.code === 4001 ? undefined : { code: error.code ?? -32603 }),
          )
      },
      unpair() {
        relayWallet?.close()
        relayWallet = null
      },
      answerLink: () =>
        Promise.reject(new Error('createTestWallet: universal links are Solana only for now')),
    }
  }
  const secret = options.privateKey instanceof Uint8Array ? options.privateKey : TEST_SOLANA_KEYS[0]
  const name = options.name ?? 'Phantom'
  const solana = createScriptedSolanaWallet(
    name,
    [secret as Uint8Array, TEST_SOLANA_KEYS[1] as Uint8Array],
    options.chains ? { chains: options.chains.map(String) as `${string}:${string}`[] } : {},
  )
  const walletId = options.walletId ?? 'phantom'
  return {
    namespace: 'solana',
    walletId,
    get address() {
      return solana.address
    },
    provider: solana.wallet,
    get answer() {
      return solana.answer
    },
    set answer(value) {
      solana.answer = value
    },
    next: (behaviour) => solana.next(behaviour),
    release: (answer) => solana.release(answer),
    get held() {
      return solana.held
    },
    requests: solana.requests,
    act: (what) => solana.act(what),
    announce: () => getWallets().register(solana.wallet),
    connector: () => new SolanaInjectedConnector({ walletId, walletName: name }),
    pair: () => Promise.reject(new Error('createTestWallet: relay pairing is EVM only for now')),
    unpair: () => {},
    answerLink: (link, behaviour, fetchImpl) =>
      createPhoneWallet({
        secretKey: secret as Uint8Array,
        walletSlug: walletId,
        ...(fetchImpl ? { fetchImpl } : {}),
      }).answer(link, behaviour),
  }
}
