/**
 * The part of the WebSocket API the relay client uses: the browser's `WebSocket` and the `ws`
 * package (Node) both provide it. Text frames only.
 */
export interface WebSocketLike {
  readonly readyState: number
  send(data: string): void
  close(code?: number, reason?: string): void
  onopen: ((event: unknown) => void) | null
  onmessage: ((event: { data: unknown }) => void) | null
  onclose: ((event: { code: number; reason: string }) => void) | null
  onerror: ((event: unknown) => void) | null
}

/** `new WebSocket(url)`: the browser global, `ws`'s default export, or a test double. */
export type WebSocketConstructor = new (url: string) => WebSocketLike

/** `WebSocket.OPEN`. */
export const WEBSOCKET_OPEN = 1
