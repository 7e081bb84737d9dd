// Issue 27, finding 7: an account change during a signature resolved with account A's signature
// while `view.address` was already account B, and nothing said which account signed. Now the
// signature resolves only if the account did not change while it was asked; else ACCOUNT_CHANGED.
// The real EIP-1193 test wallet (viem keys) emits `accountsChanged` while it holds the request.
import fc from 'fast-check'
import { type Hex, recoverMessageAddress, recoverTypedDataAddress } from 'viem'
import { afterEach, describe, expect, it } from 'vitest'
import { Client } from '../../src/client'
import { Eip1193Connector } from '../../src/connectors/eip1193'
import { isAppError } from '../../src/errors'
import { useBackendWithAnvil } from '../support/backend-with-anvil'
import { createEip1193TestWallet } from '../support/eip1193-wallet'

const backend = useBackendWithAnvil()
const clients: Client[] = []
afterEach(() => {
  for (const client of clients.splice(0)) client.actor.stop()
})
const typedData = {
  domain: { name: 'Test', version: '1', chainId: 31337 },
  types: { Mail: [{ name: 'contents', type: 'string' }] },
  primaryType: 'Mail' as const,
  message: { contents: 'hello' },
}

async function connected() {
  const wallet = await createEip1193TestWallet({ rpcUrl: backend.anvil.rpcUrl })
  const client = new Client({
    baseUrl: backend.server.baseUrl,
    appKey: backend.server.appKey,
    connectors: [new Eip1193Connector('metamask', () => wallet)],
    mobile: false,
    connectionStore: null,
  })
  clients.push(client)
  await client.connect()
  return { client, wallet }
}

const until = async (condition: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

/** Who signed `signature` (of `call`'s payload). */
function signer(call: 'signMessage' | 'signTypedData', signature: Hex) {
  return call === 'signMessage'
    ? recoverMessageAddress({ message: 'hello', signature })
    : recoverTypedDataAddress({ ...typedData, signature })
}

describe('issue 27 (7): an account change during a signature', () => {
  it('behavior: the signature resolves only when the account did not change while it was asked; else ACCOUNT_CHANGED, and the next signature is the new account’s', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('signMessage' as const, 'signTypedData' as const),
        fc.constantFrom('switch' as const, 'same' as const, 'none' as const),
        async (call, change) => {
          const { client, wallet } = await connected()
          const [a, b] = wallet.accounts.map((account) => account.address)
          const release = wallet.holdNextRequest()
          const asked =
            call === 'signMessage' ? client.signMessage('hello') : client.signTypedData(typedData)
          const settled = asked.then(
            (signature) => ({ signature, error: null }),
            (error: unknown) => ({ signature: null, error }),
          )
          await until(() => wallet.requests.length > 0 && client.getView().status === 'signing')
          if (change === 'switch') wallet.switchAccount(b as Hex)
          if (change === 'same') wallet.emit('accountsChanged', [a, b]) // re-announced, unchanged
          await new Promise((resolve) => setTimeout(resolve, 20))
          release()
          const { signature, error } = await settled
          if (change === 'switch') {
            expect(isAppError(error, 'ACCOUNT_CHANGED'), String(error)).toBe(true)
            expect(client.getView()).toMatchObject({ address: b, status: 'connected' })
            // The next signature is asked of, and made by, the new account.
            const next = (
              call === 'signMessage'
                ? await client.signMessage('hello')
                : await client.signTypedData(typedData)
            ) as Hex
            expect(await signer(call, next)).toBe(b)
          } else {
            expect(error).toBeNull()
            expect(await signer(call, signature as Hex)).toBe(a)
            expect(client.getView().address).toBe(a)
          }
          client.actor.stop()
        },
      ),
      { numRuns: 12 },
    )
  })
})
