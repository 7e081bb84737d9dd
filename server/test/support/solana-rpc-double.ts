import { once } from 'node:events'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64 } from '@scure/base'

/**
 * TEST DOUBLE for a Solana JSON-RPC node. No validator can run in this sandbox, so this loopback
 * HTTP server answers the few methods the balance reader, the transaction status reader and a
 * wallet's broadcast (`sendTransaction`) use, in the response shapes documented
 * at https://solana.com/docs/rpc (jsonParsed encoding, `{ context: { slot }, value }` wrappers,
 * JSON-RPC 2.0 errors with HTTP 200). It is not a ledger: it serves whatever the test put in it.
 */

export const TOKEN_PROGRAM_ID = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
export const TOKEN_2022_PROGRAM_ID = 'TokenzQdBNbLqP5VEhdkAS6EPFLuoJz8ku1Ayp9wvFu6'
const TOKEN_PROGRAMS: Record<string, string> = {
  [TOKEN_PROGRAM_ID]: 'spl-token',
  [TOKEN_2022_PROGRAM_ID]: 'spl-token-2022',
}
const RENT_EPOCH = 18446744073709551615n
const API_VERSION = '2.2.7'

export interface DoubleMint {
  decimals: number
  /** Token program owning the mint; Token by default. */
  programId?: string
}

export interface DoubleTokenAccount {
  /** The token account's own address (any 32-byte base58 string). */
  pubkey: string
  mint: string
  /** Raw amount in the mint's smallest unit. */
  amount: bigint
  /**
   * Program holding the account; the mint's program by default. On a real cluster the two always
   * match; overriding lets a test check that pages from both token programs are summed.
   */
  programId?: string
}

export interface SolanaDoubleState {
  slot?: number
  /** Lamports by address; absent addresses hold 0, like a real node. */
  balances?: Record<string, bigint>
  mints?: Record<string, DoubleMint>
  /** Token accounts by owner. */
  tokenAccounts?: Record<string, DoubleTokenAccount[]>
}

export interface RpcCall {
  method: string
  params: unknown
}

export interface RpcErrorBody {
  code: number
  message: string
}

export interface SolanaRpcDouble {
  url: string
  setBalance(address: string, lamports: bigint): void
  setTokenAccounts(owner: string, accounts: DoubleTokenAccount[]): void
  setMint(mint: string, info: DoubleMint): void
  setSlot(slot: number): void
  /** What `getSignatureStatuses` answers for `signature` (null: not found, the default). */
  setSignatureStatus(signature: string, status: DoubleSignatureStatus | null): void
  /** Answer every request with this JSON-RPC error until cleared (e.g. -32005 node is behind). */
  setFailure(error: RpcErrorBody | undefined): void
  /** Every request received, in order. */
  calls: RpcCall[]
  /** The transactions `sendTransaction` accepted (their signatures verified), by signature. */
  sent: Map<string, Uint8Array>
  close(): Promise<void>
}

/** A signature's status as `getSignatureStatuses` reports it. */
export interface DoubleSignatureStatus {
  slot: number
  confirmationStatus: 'processed' | 'confirmed' | 'finalized'
  /** The transaction's error (e.g. `{ InstructionError: [0, 'Custom'] }`), null when it succeeded. */
  err: unknown
}

class InvalidParams extends Error {}
/** A JSON-RPC error a method answers (e.g. a signature that does not verify). */
class RpcFailure extends Error {
  constructor(readonly body: RpcErrorBody) {
    super(body.message)
  }
}

export async function startSolanaRpcDouble(
  initial: SolanaDoubleState = {},
): Promise<SolanaRpcDouble> {
  let slot = initial.slot ?? 300_000_000
  let failure: RpcErrorBody | undefined
  const balances = new Map(Object.entries(initial.balances ?? {}))
  const mints = new Map(Object.entries(initial.mints ?? {}))
  const tokenAccounts = new Map(Object.entries(initial.tokenAccounts ?? {}))
  const calls: RpcCall[] = []
  const signatureStatuses = new Map<string, DoubleSignatureStatus>()

  const context = () => ({ apiVersion: API_VERSION, slot })

  const sent = new Map<string, Uint8Array>()

  const methods: Record<string, (params: unknown[]) => unknown> = {
    getSlot: () => slot,
    // Like a node: the signatures must verify; the transaction is then `processed` at this slot
    // (not executed: a test says how it lands with `setSignatureStatus`). Result: its first signature.
    sendTransaction(params) {
      const options = (params[1] ?? {}) as { encoding?: unknown }
      if (typeof params[0] !== 'string')
        throw new InvalidParams('expected a serialized transaction')
      const bytes =
        options.encoding === 'base64' ? base64.decode(params[0]) : base58.decode(params[0])
      const signatures = verifiedSignatures(bytes)
      const signature = base58.encode(signatures[0]!)
      sent.set(signature, bytes)
      signatureStatuses.set(signature, { slot, confirmationStatus: 'processed', err: null })
      return signature
    },
    getSignatureStatuses(params) {
      const signatures = params[0]
      if (!Array.isArray(signatures)) throw new InvalidParams('expected an array of signatures')
      return {
        context: context(),
        value: signatures.map((signature) => {
          const status = signatureStatuses.get(String(signature))
          return status
            ? { ...status, confirmations: status.confirmationStatus === 'finalized' ? null : 0 }
            : null
        }),
      }
    },
    getBalance(params) {
      const address = pubkeyParam(params[0])
      return { context: context(), value: balances.get(address) ?? 0n }
    },
    getAccountInfo(params) {
      const address = pubkeyParam(params[0])
      requireJsonParsed(params[1])
      const mint = mints.get(address)
      return { context: context(), value: mint ? mintAccount(mint) : null }
    },
    getMultipleAccounts(params) {
      if (!Array.isArray(params[0])) throw new InvalidParams('Invalid params: expected an array')
      if (params[0].length > 100) throw new InvalidParams('Too many inputs provided; max 100')
      requireJsonParsed(params[1])
      const value = params[0].map((entry) => {
        const address = pubkeyParam(entry)
        const mint = mints.get(address)
        if (mint) return mintAccount(mint)
        const lamports = balances.get(address)
        return lamports === undefined ? null : systemAccount(lamports)
      })
      return { context: context(), value }
    },
    getTokenAccountsByOwner(params) {
      const owner = pubkeyParam(params[0])
      const filter = params[1] as { mint?: unknown; programId?: unknown } | undefined
      requireJsonParsed(params[2])
      let programId: string
      let mintFilter: string | undefined
      if (filter && typeof filter.programId === 'string') {
        programId = filter.programId
        if (!TOKEN_PROGRAMS[programId]) {
          throw new InvalidParams('Invalid param: unrecognized Token program id')
        }
      } else if (filter && typeof filter.mint === 'string') {
        mintFilter = pubkeyParam(filter.mint)
        const mint = mints.get(mintFilter)
        if (!mint) throw new InvalidParams('Invalid param: could not find mint')
        programId = mint.programId ?? TOKEN_PROGRAM_ID
      } else {
        throw new InvalidParams('Invalid params: expected a mint or programId filter')
      }
      const value = (tokenAccounts.get(owner) ?? [])
        .filter((account) => programOf(account) === programId)
        .filter((account) => mintFilter === undefined || account.mint === mintFilter)
        .map((account) => tokenAccount(owner, account, programId))
      return { context: context(), value }
    },
  }

  /** The signatures of a serialized transaction, each checked against its signer's key. */
  function verifiedSignatures(transaction: Uint8Array): Uint8Array[] {
    const count = transaction[0] ?? 0
    const message = transaction.subarray(1 + count * 64)
    const headerAt = (message[0] ?? 0) & 0x80 ? 1 : 0
    const keysAt = headerAt + 4
    const signatures: Uint8Array[] = []
    for (let index = 0; index < count; index++) {
      const signature = transaction.subarray(1 + index * 64, 1 + (index + 1) * 64)
      const key = message.subarray(keysAt + index * 32, keysAt + (index + 1) * 32)
      if (count === 0 || !ed25519.verify(signature, message, key)) {
        throw new RpcFailure({
          code: -32003,
          message: 'Transaction signature verification failure',
        })
      }
      signatures.push(signature)
    }
    if (signatures.length === 0) throw new InvalidParams('a transaction without signatures')
    return signatures
  }

  function programOf(account: DoubleTokenAccount): string {
    return account.programId ?? mints.get(account.mint)?.programId ?? TOKEN_PROGRAM_ID
  }

  function mintAccount(mint: DoubleMint) {
    const programId = mint.programId ?? TOKEN_PROGRAM_ID
    return {
      data: {
        parsed: {
          info: {
            decimals: mint.decimals,
            freezeAuthority: null,
            isInitialized: true,
            mintAuthority: null,
            supply: '0',
          },
          type: 'mint',
        },
        program: TOKEN_PROGRAMS[programId],
        space: 82,
      },
      executable: false,
      lamports: 1461600,
      owner: programId,
      rentEpoch: RENT_EPOCH,
      space: 82,
    }
  }

  /** A wallet: owned by the System program, no data (jsonParsed falls back to base64 for it). */
  function systemAccount(lamports: bigint) {
    return {
      data: ['', 'base64'],
      executable: false,
      lamports,
      owner: '11111111111111111111111111111111',
      rentEpoch: RENT_EPOCH,
      space: 0,
    }
  }

  function tokenAccount(owner: string, account: DoubleTokenAccount, programId: string) {
    const decimals = mints.get(account.mint)?.decimals ?? 0
    const ui = Number(account.amount) / 10 ** decimals
    return {
      pubkey: account.pubkey,
      account: {
        data: {
          parsed: {
            info: {
              isNative: false,
              mint: account.mint,
              owner,
              state: 'initialized',
              tokenAmount: {
                amount: account.amount.toString(),
                decimals,
                uiAmount: ui,
                uiAmountString: String(ui),
              },
            },
            type: 'account',
          },
          program: TOKEN_PROGRAMS[programId],
          space: 165,
        },
        executable: false,
        lamports: 2039280,
        owner: programId,
        rentEpoch: RENT_EPOCH,
        space: 165,
      },
    }
  }

  function answer(request: unknown): unknown {
    const { id = null, method, params = [] } = (request ?? {}) as Record<string, unknown>
    if (typeof method !== 'string') {
      return rpcError(id, { code: -32600, message: 'Invalid request' })
    }
    calls.push({ method, params })
    if (failure) return rpcError(id, failure)
    const handler = methods[method]
    if (!handler) return rpcError(id, { code: -32601, message: 'Method not found' })
    if (!Array.isArray(params)) {
      return rpcError(id, { code: -32602, message: 'Invalid params: expected an array' })
    }
    try {
      return { jsonrpc: '2.0', result: handler(params), id }
    } catch (error) {
      if (error instanceof InvalidParams) {
        return rpcError(id, { code: -32602, message: error.message })
      }
      if (error instanceof RpcFailure) return rpcError(id, error.body)
      throw error
    }
  }

  const server = createServer((req, res) => void handle(req, res))
  async function handle(req: IncomingMessage, res: ServerResponse) {
    let text = ''
    for await (const chunk of req) text += chunk
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return send(res, rpcError(null, { code: -32700, message: 'Parse error' }))
    }
    send(res, Array.isArray(body) ? body.map(answer) : answer(body))
  }

  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    setBalance: (address, lamports) => void balances.set(address, lamports),
    setTokenAccounts: (owner, accounts) => void tokenAccounts.set(owner, accounts),
    setMint: (mint, info) => void mints.set(mint, info),
    setSignatureStatus(signature, status) {
      if (status) signatureStatuses.set(signature, status)
      else signatureStatuses.delete(signature)
    },
    setSlot: (next) => {
      slot = next
    },
    setFailure: (error) => {
      failure = error
    },
    calls,
    sent,
    async close() {
      server.closeAllConnections()
      server.close()
      await once(server, 'close')
    },
  }
}

function pubkeyParam(value: unknown): string {
  if (typeof value !== 'string') throw new InvalidParams('Invalid params: expected a string')
  let bytes: Uint8Array
  try {
    bytes = base58.decode(value)
  } catch {
    throw new InvalidParams('Invalid param: Invalid')
  }
  if (bytes.length !== 32) throw new InvalidParams('Invalid param: WrongSize')
  return value
}

/** The double only speaks jsonParsed; a reader asking for base64 would get data it cannot use. */
function requireJsonParsed(config: unknown): void {
  const encoding = (config as { encoding?: unknown } | undefined)?.encoding
  if (encoding !== 'jsonParsed') {
    throw new InvalidParams('Invalid params: this test double only serves jsonParsed encoding')
  }
}

function rpcError(id: unknown, error: RpcErrorBody) {
  return { jsonrpc: '2.0', error, id }
}

/** JSON.stringify cannot write bigint; u64 fields (lamports, rentEpoch) stay exact JSON integers. */
function send(res: ServerResponse, body: unknown) {
  const text = JSON.stringify(body, (_key, value) =>
    typeof value === 'bigint' ? `__big${value}__` : value,
  ).replace(/"__big(\d+)__"/g, '$1')
  res.writeHead(200, { 'content-type': 'application/json' })
  res.end(text)
}
