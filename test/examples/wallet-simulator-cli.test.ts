import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { PartnerWalletEntry } from 'scope-connect/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  SOLANA_DEVNET,
  startTestServer,
  TEST_PROJECT,
  type TestServer,
} from '../../server/test/support/server'
import { GenericWalletSessionClient } from '../../src/session/client'
import { TEST_PARTNER_WALLET } from '../../src/testing'
import { buildUniversalLinkUrl, type UniversalLinkMethod } from '../../src/universal-link'

// The wallet simulator run by hand: a real process, a real key file, the real server verifying
// its ed25519 signature.

const CLI = fileURLToPath(new URL('../../examples/wallet-simulator/src/cli.ts', import.meta.url))
const TSX = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url))
const run = promisify(execFile)

let server: TestServer
let sessions: GenericWalletSessionClient
const dir = mkdtempSync(join(tmpdir(), 'wallet-cli-'))
const keyFile = join(dir, 'wallet.key')

beforeAll(async () => {
  // The project declares the test kit's partner wallet: the simulator answers sc* links as it.
  const partnerWallets = [structuredClone(TEST_PARTNER_WALLET) as PartnerWalletEntry]
  server = await startTestServer({ projects: { projects: [{ ...TEST_PROJECT, partnerWallets }] } })
  sessions = new GenericWalletSessionClient(server.baseUrl, server.appKey)
})
afterAll(async () => {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

function link(session: { sessionId: string; nonce: string }, method: UniversalLinkMethod) {
  return buildUniversalLinkUrl('https://wallet.scope-connect.test/ul/', {
    sessionId: session.sessionId,
    nonce: session.nonce,
    chainId: SOLANA_DEVNET,
    callbackUrl: server.baseUrl,
    method,
    returnUrl: 'https://dapp.example/back',
  })
}

async function wallet(...args: string[]) {
  try {
    const { stdout } = await run(TSX, [CLI, ...args, '--key-file', keyFile])
    return { code: 0, stdout }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout + failed.stderr }
  }
}

describe('wallet simulator CLI', () => {
  it('connects, then signs with the same key; the server verifies the signature', async () => {
    const session = await sessions.createSession(SOLANA_DEVNET, {
      walletSlug: 'scope-test-wallet',
      intent: 'sign',
    })
    const connected = await wallet(link(session, 'connect'))
    expect(connected.code).toBe(0)
    const address = /^wallet (\w+)$/m.exec(connected.stdout)?.[1]
    expect(connected.stdout).toContain(
      `connect for session ${session.sessionId}: callback answered 204`,
    )
    expect(connected.stdout).toContain('back to the dApp: https://dapp.example/back')
    expect(readFileSync(keyFile, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/)

    const signed = await wallet(link(session, 'signMessage'))
    expect(signed.code).toBe(0)
    expect(signed.stdout).toContain(`wallet ${address}`)
    const result = await sessions.getResult(session.sessionId, session.sessionToken)
    expect(result).toMatchObject({ status: 'signed', walletAddress: address })
  }, 60_000)

  it('--reject posts the user rejection', async () => {
    const session = await sessions.createSession(SOLANA_DEVNET, { walletSlug: 'scope-test-wallet' })
    expect((await wallet(link(session, 'connect'), '--reject')).code).toBe(0)
    const result = await sessions.getResult(session.sessionId, session.sessionToken)
    expect(result).toMatchObject({ status: 'rejected', errorCode: 'USER_REJECTED' })
  }, 60_000)

  it('a link without sc* parameters is refused with a message', async () => {
    const refused = await wallet('https://wallet.scope-connect.test/ul/?nothing=here')
    expect(refused.code).toBe(2)
    expect(refused.stdout).toMatch(/wallet simulator: unsupported scVersion/)
  }, 60_000)
})
