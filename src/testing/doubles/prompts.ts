import { JUNK_WALLET_ANSWER, never, type WalletAnswer } from './answers'

/** A request a wallet double received: what was asked and how it was answered. */
export interface RecordedRequest {
  method: string
  params: unknown
  /** The behaviour it met (`handler` for a function). */
  behaviour: WalletAnswer | 'hold' | 'handler' | 'passive'
  /** `pending` until it settles; `hang` requests stay pending. */
  outcome: 'pending' | 'result' | 'error'
}

/** Answers a request itself: its value is the wallet's result, a throw the wallet's error. */
export type WalletHandler = (request: { method: string; params: unknown }) => unknown

/**
 * How a wallet double answers its next prompt: an answer, `hold` (the prompt waits for
 * `release(answer)`, as a user who has not clicked yet), or a handler.
 */
export type WalletBehaviour = WalletAnswer | 'hold' | WalletHandler

export interface PromptGate {
  /** The behaviour of every prompt once the queued ones are used up. */
  answer: WalletAnswer | 'hold'
  /** Queues the behaviour of the next prompt (one prompt each, in order). */
  next(behaviour: WalletBehaviour): void
  /** Answers the latest prompt still held (the one the wallet shows on top); false when none is. */
  release(answer: WalletAnswer): boolean
  /** Prompts waiting for `release`. */
  readonly held: number
  readonly requests: RecordedRequest[]
  /** Runs a prompt (a request the user must answer) under the scripted behaviour. */
  prompt<T>(method: string, params: unknown, perform: () => Promise<T> | T): Promise<T>
  /** Runs a passive request (reads a real wallet answers without asking): recorded, always answered. */
  passive<T>(method: string, params: unknown, perform: () => Promise<T> | T): Promise<T>
}

export interface PromptGateOptions {
  /** The wallet's error of `code` (EIP-1193: 4001 rejected, 4100 unauthorized, -32603 internal). */
  fail(code: number, message: string): Error
  /** The wallet UI acting on its own (after `changeAccount` / `changeChain`, on `lock`). */
  act(what: 'changeAccount' | 'changeChain' | 'lock'): void
}

/** The scripted answers of one wallet double, shared by the EVM and Solana wallets. */
export function createPromptGate(options: PromptGateOptions): PromptGate {
  const queue: WalletBehaviour[] = []
  const held: Array<(answer: WalletAnswer) => void> = []
  const requests: RecordedRequest[] = []

  async function answerWith<T>(answer: WalletAnswer, perform: () => Promise<T> | T): Promise<T> {
    if (answer === 'hang') return never()
    if (answer === 'reject') throw options.fail(4001, 'User rejected the request.')
    if (answer === 'error') throw options.fail(-32603, 'Internal wallet error.')
    if (answer === 'lock') {
      options.act('lock')
      throw options.fail(4100, 'The wallet is locked.')
    }
    if (answer === 'garbage') return JUNK_WALLET_ANSWER as T
    const result = await perform()
    if (answer === 'changeAccount' || answer === 'changeChain')
      queueMicrotask(() => options.act(answer))
    return result
  }

  async function settle<T>(record: RecordedRequest, work: Promise<T>): Promise<T> {
    try {
      const result = await work
      record.outcome = 'result'
      return result
    } catch (error) {
      record.outcome = 'error'
      throw error
    }
  }

  const gate: PromptGate = {
    answer: 'approve',
    next(behaviour) {
      queue.push(behaviour)
    },
    release(answer) {
      const resolve = held.pop()
      resolve?.(answer)
      return resolve !== undefined
    },
    get held() {
      return held.length
    },
    requests,
    prompt(method, params, perform) {
      const behaviour = queue.shift() ?? gate.answer
      const record: RecordedRequest = {
        method,
        params,
        behaviour: typeof behaviour === 'function' ? 'handler' : behaviour,
        outcome: 'pending',
      }
      requests.push(record)
      if (typeof behaviour === 'function')
        return settle(
          record,
          Promise.resolve().then(() => behaviour({ method, params }) as never),
        )
      if (behaviour !== 'hold') return settle(record, answerWith(behaviour, perform))
      const released = new Promise<WalletAnswer>((resolve) => held.push(resolve))
      return settle(
        record,
        released.then((answer) => answerWith(answer, perform)),
      )
    },
    passive(method, params, perform) {
      const record: RecordedRequest = { method, params, behaviour: 'passive', outcome: 'pending' }
      requests.push(record)
      return settle(record, Promise.resolve().then(perform))
    },
  }
  return gate
}
