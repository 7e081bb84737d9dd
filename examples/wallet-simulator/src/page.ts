import { ed25519 } from '@noble/curves/ed25519.js'
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js'
import { isAppError, type SessionProposal, type WalletSessionRequest } from 'scope-connect/wallet'
import { type Hex, hexToString, isHex } from 'viem'
import { createWalletSimulator } from './index'
import { createRelayWalletSimulator } from './relay'

// The wallet simulator as a page (`npm run demo`): it answers the universal link it was opened
// with (posting the backend callback, then sending the user back to the dApp) and pairs with a
// dApp over the relay from a pasted URI. Every answer waits for a click, as in a real wallet.

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T
const config = JSON.parse($('config')?.textContent ?? '{}') as { appKey?: string }
const appKey =
  new URLSearchParams(location.search).get('appKey') ?? config.appKey ?? 'sample-app-key'
const KEY_STORAGE = 'wallet-simulator:ed25519-key'

/** The wallet's Solana key: kept in this origin's localStorage, so connect and sign use one key. */
function solanaKey(): Uint8Array {
  const stored = localStorage.getItem(KEY_STORAGE)
  if (stored && /^[0-9a-f]{64}$/.test(stored)) return hexToBytes(stored)
  const key = ed25519.utils.randomSecretKey()
  localStorage.setItem(KEY_STORAGE, bytesToHex(key))
  return key
}

const secretKey = solanaKey()
const relay = createRelayWalletSimulator({
  appKey,
  solanaSecretKey: secretKey,
  metadata: { name: 'Wallet Simulator', url: location.origin },
  decide: askForRequest,
})
$('solana-address').textContent = relay.solanaAddress
$('evm-address').textContent = relay.evm.address

/** Resolves with the button the user clicks. */
function choice(approve: HTMLButtonElement, reject: HTMLButtonElement): Promise<boolean> {
  approve.disabled = false
  reject.disabled = false
  return new Promise((resolve) => {
    const done = (answer: boolean) => {
      approve.disabled = true
      reject.disabled = true
      resolve(answer)
    }
    approve.onclick = () => done(true)
    reject.onclick = () => done(false)
  })
}

// --- Universal link: the page was opened with the sc* parameters -----------------------------

async function answerLink(link: string) {
  const params = new URL(link).searchParams
  const nonce = params.get('scNonce') ?? ''
  $('link').hidden = false
  $('link-dapp').textContent = params.get('scDappName') ?? 'A dApp'
  $('link-method').textContent = params.get('scMethod') ?? ''
  $('link-chain').textContent = params.get('scChain') ?? ''
  $('link-session').textContent = params.get('scSessionId') ?? ''
  $('link-return').textContent = params.get('scReturnUrl') ?? '(none)'
  const approved = await choice($('link-approve'), $('link-reject'))
  $('link-status').textContent = 'posting the callback…'
  const wallet = createWalletSimulator({
    secretKey,
    // The partner wallet the sample project declares: only a partner answers sc* links.
    walletSlug: 'scope-test-wallet',
    // The callbacks are bound to the session by the nonce only the link carries.
    fetchImpl: (url, init) => {
      const headers = new Headers(init?.headers)
      headers.set('X-Session-Nonce', nonce)
      return fetch(url, { ...init, headers })
    },
  })
  try {
    const handled = await wallet.handle(link, approved ? 'approve' : 'reject')
    $('link-status').textContent =
      `${approved ? handled.method : 'reject'}: the backend answered ${handled.callbackStatus}`
    if (handled.returnUrl) {
      $('link-status').textContent += '; back to the dApp…'
      // A moment to read it, as a wallet app shows its confirmation before switching apps.
      setTimeout(() => location.assign(handled.returnUrl as string), 600)
    }
  } catch (error) {
    $('link-status').textContent = `error: ${error instanceof Error ? error.message : error}`
  }
}

// --- Relay pairing from a pasted URI ----------------------------------------------------------

function describeRequest(request: WalletSessionRequest): string {
  if (request.method === 'personal_sign') {
    const raw = request.params[0]
    return `personal_sign: "${isHex(raw) ? hexToString(raw as Hex) : raw}"`
  }
  return `${request.method} on ${request.chainId}`
}

async function askForRequest(request: WalletSessionRequest): Promise<'approve' | 'reject'> {
  const item = document.createElement('li')
  const text = document.createElement('span')
  text.textContent = `${describeRequest(request)} `
  const approve = document.createElement('button')
  approve.className = 'approve'
  approve.textContent = 'Approve'
  const reject = document.createElement('button')
  reject.className = 'reject'
  reject.textContent = 'Reject'
  item.append(text, approve, ' ', reject)
  $('requests').append(item)
  const approved = await choice(approve, reject)
  item.append(approved ? ' — signed' : ' — rejected')
  return approved ? 'approve' : 'reject'
}

async function pair() {
  const uri = $<HTMLTextAreaElement>('pair-uri').value.trim()
  $('pair-status').textContent = 'pairing…'
  let proposal: SessionProposal
  try {
    proposal = await relay.wallet.pair(uri)
  } catch (error) {
    $('pair-status').textContent = isAppError(error) ? `error: ${error.code}` : String(error)
    return
  }
  $('pair-status').textContent = 'the dApp asks to connect'
  $('proposal').hidden = false
  $('proposal-name').textContent = proposal.proposer.metadata.name
  $('proposal-url').textContent = proposal.proposer.metadata.url
  $('proposal-chains').textContent = Object.values(proposal.requiredNamespaces)
    .flatMap((namespace) => namespace.chains ?? [])
    .join(', ')
  const approved = await choice($('proposal-approve'), $('proposal-reject'))
  try {
    if (approved) {
      const session = await relay.approve(proposal)
      const accounts = Object.values(session.namespaces).flatMap((n) => n.accounts)
      $('pair-status').textContent = `paired: ${accounts.join(', ')}`
    } else {
      await proposal.reject()
      $('pair-status').textContent = 'rejected'
    }
  } catch (error) {
    $('pair-status').textContent = isAppError(error) ? `error: ${error.code}` : String(error)
  }
}

relay.wallet.onSessionDelete(() => {
  $('pair-status').textContent = 'the dApp ended the session'
})
$('pair').onclick = () => void pair()
if (new URLSearchParams(location.search).has('scVersion')) void answerLink(location.href)
