import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

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
