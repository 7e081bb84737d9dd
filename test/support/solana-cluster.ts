import { base64 } from '@scure/base'

// What the Solana tests do on a cluster (the Solana JSON-RPC TEST DOUBLE: no validator runs here):
// build a transaction for a wallet to sign, and broadcast one as a wallet does.

/** A legacy transaction with one instruction and `signer` as its only signer, unsigned (base64). */
export function unsignedLegacyTransaction(signer: Uint8Array): {
  transaction: string
  message: Uint8Array
} {
  const message = Uint8Array.from([
    ...[1, 0, 1],
    2,
    ...signer,
    ...new Uint8Array(32),
    ...crypto.getRandomValues(new Uint8Array(32)),
    ...[1, 1, 1, 0, 0],
  ])
  const transaction = base64.encode(Uint8Array.from([1, ...new Uint8Array(64), ...message]))
  return { transaction, message }
}

/** Broadcasts a signed transaction as a wallet does (JSON-RPC `sendTransaction`, base64): its signature. */
export async function broadcastSolanaTransaction(
  rpcUrl: string,
  signed: Uint8Array,
): Promise<string> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'sendTransaction',
      params: [base64.encode(signed), { encoding: 'base64' }],
    }),
  })
  const body = (await response.json()) as { result?: string; error?: { message: string } }
  if (typeof body.result !== 'string') throw new Error(body.error?.message ?? 'send failed')
  return body.result
}
