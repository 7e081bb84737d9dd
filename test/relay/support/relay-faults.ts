import { afterAll, beforeAll, expect } from 'vitest'
import WebSocket from 'ws'
import { startTestServer, type TestServer } from '../../../server/test/support/server'
import { type AppError, isAppError } from '../../../src/errors'
import type { WebSocketConstructor } from '../../../src/relay/client/websocket'

/**
 * A DOUBLE of the page's network to the relay: `dropAll()` cuts every open connection, `down`
 * refuses reconnects. Every socket is a real `ws` one; give it to a `Client` as `DROPPABLE_WEBSOCKET`.
 */
export class DroppableWebSocket extends WebSocket {
  static down = false
  static open = new Set<DroppableWebSocket>()
  static dropAll() {
    for (const socket of DroppableWebSocket.open) socket.terminate()
  }
  constructor(url: string | URL, protocols?: string | string[]) {
    // While down, the connection is refused (nothing listens on port 9).
    super(DroppableWebSocket.down ? 'ws://127.0.0.1:9' : url, protocols)
    DroppableWebSocket.open.add(this)
    this.on('close', () => DroppableWebSocket.open.delete(this))
  }
}

/** `DroppableWebSocket` as the `Client`'s `WebSocket` option. */
export const DROPPABLE_WEBSOCKET = DroppableWebSocket as unknown as WebSocketConstructor

/** The real backend and relay (`startTestServer`) for the file: up before its tests, closed after. */
export function useRelayServer(): Pick<TestServer, 'baseUrl' | 'appKey'> {
  let server: TestServer | undefined
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server?.close())
  const started = () => {
    if (!server) throw new Error('the test server starts in beforeAll: use it inside a test')
    return server
  }
  return {
    get baseUrl() {
      return started().baseUrl
    },
    get appKey() {
      return started().appKey
    },
  }
}

/** The `AppError` `promise` rejects with (the test fails if it resolves or rejects otherwise). */
export async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  )
  expect(isAppError(error), String(error)).toBe(true)
  return error as AppError
}
