/**
 * scope-connect quickstart: the library against a running backend, end to end.
 *
 *   npm install && npm start                 # terminal 1: the backend on http://127.0.0.1:8787
 *   npx tsx examples/quickstart/index.ts     # terminal 2: this script
 *
 * It loads the project config, reads a balance on the local chain `npm start` runs beside the
 * backend (anvil, `eip155:31337`, a funded dev account; the typed error and a hint when it is not
 * running; the project's first EVM network when it has no local chain), then plays both sides of a wallet session: the dApp creates it and polls,
 * a wallet (a fresh viem key standing in for the user's phone) connects and signs the server's
 * nonce, and the polling statechart reaches `signed` once the backend has verified the signature
 * (it long-polls: the backend answers as soon as the session changes).
 */
import {
  buildSignedMessageEnvelope,
  createBalanceReader,
  createConnectConfigClient,
  type GenericSessionResult,
  GenericWalletSessionClient,
  isAppError,
  pollGenericSessionResult,
} from 'scope-connect'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'

/** The sample project's partner wallet (`partnerWallets` in server/projects.sample.json). */
const PARTNER_WALLET = 'scope-test-wallet'

/** The local chain `npm start` runs (anvil) and its first funded dev account. */
const LOCAL_CHAIN_ID = 'eip155:31337'
const DEV_ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

export interface QuickstartOptions {
  baseUrl: string
  appKey: string
  /** Where progress lines go; default the console. */
  log?: (line: string) => void
  /** Poll cadence; the default is the library's 1.5–2 s. */
  intervalMs?: number
}

export async function runQuickstart(options: QuickstartOptions): Promise<GenericSessionResult> {
  const { baseUrl, appKey } = options
  const log = options.log ?? console.log

  const config = await createConnectConfigClient({ baseUrl, appKey }).fetchConfig()
  log(
    `project ${config.name}: ${config.networks.length} networks, ${config.wallets.length} wallets`,
  )
  const local = config.networks.find((network) => network.networkId === LOCAL_CHAIN_ID)
  const evm = local ?? config.networks.find((network) => network.namespace === 'eip155')
  if (!evm) throw new Error('the project enables no EVM network')

  try {
    const balance = await createBalanceReader({ baseUrl, appKey }).getBalance({
      chainId: evm.networkId,
      tokenAddress: 'native',
      account: local ? DEV_ACCOUNT : '0x0000000000000000000000000000000000000000',
    })
    log(`balance on ${evm.name}: ${balance.raw} (${balance.decimals} decimals)`)
  } catch (error) {
    // Every failure is an AppError with a documented code; the backend's own code rides along.
    if (!isAppError(error)) throw error
    const hint = local ? ' (is the local chain running? `npm start` starts one)' : ''
    log(`balance on ${evm.name}: ${error.code} (${error.backendCode ?? 'no backend code'})${hint}`)
  }

  const sessions = new GenericWalletSessionClient(baseUrl, appKey)
  // The wallet answering: a partner wallet (it integrates scope-connect/wallet), the one the
  // sample project declares; no built-in brand speaks the sc* callbacks.
  const session = await sessions.createSession(evm.networkId, { walletSlug: PARTNER_WALLET })
  log(`session ${session.sessionId} created`)
  const polled = pollGenericSessionResult(sessions, session.sessionId, session.sessionToken, {
    onUpdate: (result) => log(`status: ${result.status}`),
    ...(options.intervalMs === undefined ? {} : { intervalMs: options.intervalMs }),
  })

  // The wallet's side: it learns the session id and nonce from the link or QR code it opened,
  // and proves it with the nonce on every callback (the id alone changes nothing).
  const wallet = privateKeyToAccount(generatePrivateKey())
  const proof = { nonce: session.nonce }
  await sessions.postConnect(
    {
      sessionId: session.sessionId,
      walletSlug: PARTNER_WALLET,
      caip2Chain: evm.networkId,
      walletAddress: wallet.address,
    },
    proof,
  )
  const timestamp = Date.now()
  const message = buildSignedMessageEnvelope(
    session.sessionId,
    session.nonce,
    wallet.address,
    timestamp,
  )
  const signature = await wallet.signMessage({ message })
  await sessions.postSignMsg({ sessionId: session.sessionId, signature, timestamp }, proof)

  const result = await polled
  log(`signed by ${result.walletAddress}, verified by the backend`)
  return result
}

const isEntryPoint = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1])
if (isEntryPoint) {
  await runQuickstart({
    baseUrl: process.env.SCOPE_CONNECT_URL ?? 'http://127.0.0.1:8787',
    appKey: process.env.SCOPE_CONNECT_APP_KEY ?? 'sample-app-key',
  })
}
