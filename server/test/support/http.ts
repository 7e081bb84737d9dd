import { API_PREFIX } from 'scope-connect/wire'

export interface Answer {
  status: number
  headers: Headers
  /** Parsed JSON, or the raw text when the body is not JSON, or undefined when empty. */
  body: unknown
}

export interface CallOptions {
  method?: string
  headers?: Record<string, string>
  /** Sent as JSON unless it is a string (then as is). */
  body?: unknown
}

/** One real HTTP request to `baseUrl + API_PREFIX + path` (or an absolute path starting with `//`). */
export async function call(
  baseUrl: string,
  path: string,
  options: CallOptions = {},
): Promise<Answer> {
  const url = path.startsWith('//') ? baseUrl + path.slice(1) : baseUrl + API_PREFIX + path
  const headers: Record<string, string> = { ...options.headers }
  let body: string | undefined
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body)
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json'
    }
  }
  const response = await fetch(url, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    ...(body === undefined ? {} : { body }),
  })
  const text = await response.text()
  let parsed: unknown = text === '' ? undefined : text
  try {
    parsed = text === '' ? undefined : JSON.parse(text)
  } catch {}
  return { status: response.status, headers: response.headers, body: parsed }
}

/** The `error.code` of an error body (or undefined). */
export const codeOf = (answer: Answer): string | undefined =>
  (answer.body as { error?: { code?: string } } | undefined)?.error?.code
