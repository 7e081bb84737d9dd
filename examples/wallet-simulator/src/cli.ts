/**
 * The wallet simulator from the command line: give it the universal link a dApp opened (the
 * `sc*` parameters), and it acts as the wallet app with a real ed25519 key: it connects, signs the
 * server's nonce or the transaction, or rejects, by posting the backend callback (with the link's
 * nonce in `X-Session-Nonce`, which the backend requires).
 *
 *   npx tsx examples/wallet-simulator/src/cli.ts '<universal link>' [options]
 *
 *   --reject            the user declines (posts USER_REJECTED)
 *   --fail              the wallet fails (posts WALLET_INTERNAL_ERROR)
 *   --key-file <path>   the wallet's key, created on first use
 *                       (default examples/wallet-simulator/.wallet-key)
 *   --wallet <slug>     the wallet slug it reports (default scope-test-wallet, the partner wallet)
 *
 * The same key file across runs is the same wallet: connect with one link, sign with the next.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { ed25519 } from '@noble/curves/ed25519.js'
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js'
import { createWalletSimulator, type WalletDecision } from './index'

const DEFAULT_KEY_FILE = fileURLToPath(new URL('../.wallet-key', import.meta.url))

export interface CliResult {
  address: string
  method: string
  sessionId: string
  callbackStatus: number
  returnUrl: string | null
}

/** Reads the key file, or creates it with a fresh key (hex, owner-only permissions). */
export function loadOrCreateKey(path: string): Uint8Array {
  if (existsSync(path)) {
    const hex = readFileSync(path, 'utf8').trim()
    if (!/^[0-9a-f]{64}$/i.test(hex)) throw new Error(`${path}: not a 32-byte hex key`)
    return hexToBytes(hex)
  }
  const key = ed25519.utils.randomSecretKey()
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, `${bytesToHex(key)}\n`, { mode: 0o600 })
  return key
}

export async function runWalletCli(argv: string[]): Promise<CliResult> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      reject: { type: 'boolean' },
      fail: { type: 'boolean' },
      'key-file': { type: 'string' },
      wallet: { type: 'string' },
    },
  })
  const link = positionals[0]
  if (!link || positionals.length > 1) throw new Error('usage: cli.ts <universal link> [options]')
  const decision: WalletDecision = values.reject ? 'reject' : values.fail ? 'fail' : 'approve'
  const wallet = createWalletSimulator({
    secretKey: loadOrCreateKey(values['key-file'] ?? DEFAULT_KEY_FILE),
    walletSlug: values.wallet ?? 'scope-test-wallet',
  })
  const handled = await wallet.handle(link, decision)
  return { address: wallet.address, ...handled }
}

const isEntryPoint = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1])
if (isEntryPoint) {
  try {
    const result = await runWalletCli(process.argv.slice(2))
    console.log(`wallet ${result.address}`)
    console.log(
      `${result.method} for session ${result.sessionId}: callback answered ${result.callbackStatus}`,
    )
    if (result.returnUrl) console.log(`back to the dApp: ${result.returnUrl}`)
    process.exitCode = result.callbackStatus === 204 ? 0 : 1
  } catch (error) {
    console.error(`wallet simulator: ${error instanceof Error ? error.message : String(error)}`)
    process.exitCode = 2
  }
}
