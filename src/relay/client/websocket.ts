/**
 * The part of the WebSocket API the relay client uses: the browser's `WebSocket` and the `ws`
 * package (Node) both provide it. Text frames only.
 */
export interface WebSocketLike {
  readonly readyState: number
  send(data: string): void
  close(code?: number, reason?: string): void
  onopen: Handler<unknown> | null
  onmessage: Handler<{ data: unknown }> | null
  onclose: Handler<{ code: number; reason: string }> | null
  onerror: Handler<unknown> | null
}

/**
 * An event handler checked bivariantly (method syntax), so implementations whose events carry more
 * (`ws`'s `CloseEvent`, the DOM's) fit without a cast.
 */
type Handler<E> = { bivarianceHack(event: E): void }['bivarianceHack']

/** `new WebSocket(url)`: the browser global, `ws`'s default export, or a test double. */
export type WebSocketConstructor = new (url: string) => WebSocketLike

/** `WebSocket.OPEN`. */
export const WEBSOCKET_OPEN = 1
