import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach } from 'vitest'

export interface RecordedRequest {
  method: string
  url: URL
  headers: IncomingHttpHeaders
  body: string
}

export type Handler = (request: RecordedRequest, response: ServerResponse) => void

/** A loopback HTTP server (127.0.0.1, random port) whose answers each test sets. */
export interface Loopback {
  baseUrl: string
  requests: RecordedRequest[]
  handle(handler: Handler): void
  close(): Promise<void>
}

export async function startLoopback(): Promise<Loopback> {
  let handler: Handler = (_req, res) => {
    res.statusCode = 500
    res.end()
  }
  const requests: RecordedRequest[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: new URL(req.url ?? '/', 'http://127.0.0.1'),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      }
      requests.push(recorded)
      handler(recorded, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    handle(next) {
      handler = next
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/**
 * One loopback for a test file: started before its tests, closed after them, its recorded
 * requests cleared before each test. Read it inside tests (it runs once `beforeAll` did).
 */
export function useLoopback(): Loopback {
  let running: Loopback | undefined
  beforeAll(async () => {
    running = await startLoopback()
  })
  afterAll(() => running?.close())
  beforeEach(() => {
    if (running) running.requests.length = 0
  })
  const live = (): Loopback => {
    if (!running) throw new Error('the loopback starts in beforeAll: use it inside tests')
    return running
  }
  return {
    get baseUrl() {
      return live().baseUrl
    },
    get requests() {
      return live().requests
    },
    handle: (handler) => live().handle(handler),
    close: () => live().close(),
  }
}

/** Answers JSON with a status and optional headers. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers })
    res.end(JSON.stringify(body))
  }
}

/** Answers a backend error body. */
export function backendError(
  status: number,
  code: string,
  message: string,
  extra: { details?: { field: string; reason: string }[]; headers?: Record<string, string> } = {},
): Handler {
  return json(
    status,
    { error: { code, message, ...(extra.details ? { details: extra.details } : {}) } },
    extra.headers,
  )
}

/** Answers raw text. */
export function text(status: number, body: string, contentType = 'text/plain'): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': contentType })
    res.end(body)
  }
}

/** Never answers (for timeouts). */
export const hang: Handler = () => {}

/** A URL on which nothing listens. */
export async function refusedBaseUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}`
}
