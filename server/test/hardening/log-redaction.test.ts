import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app'
import { loggedUrl, sessionLogId } from '../../src/logging'
import { TEST_APP_KEY, TEST_PROJECT } from '../support/server'

const secret = () => randomBytes(24).toString('base64url')

describe('log redaction (issue 16, finding 6: query strings and unknown paths in clear)', () => {
  it('every spelling of a credential in the query is redacted; allow-listed parameters stay', async () => {
    const lines: string[] = []
    const app = await buildApp({
      projects: { projects: [TEST_PROJECT] },
      logger: { level: 'info', destination: { write: (line: string) => lines.push(line) } },
    })
    try {
      const secrets = Array.from({ length: 7 }, secret)
      const urls = [
        `/api/v1/connect/config?sessionToken=${secrets[0]}`,
        `/api/v1/connect/config?Token=${secrets[1]}`,
        `/api/v1/connect/config?%74oken=${secrets[2]}`,
        `/api/v1/connect/config?nonce=${secrets[3]}`,
        `/api/v1/connect/relay?TOKEN=${secrets[4]}&x=1`,
        `/api/v1/connect/balances?chainId=eip155%3A1&account=${secrets[5]}`,
        `/api/v1/connect/config?${secrets[6]}`,
      ]
      for (const url of urls) {
        await app.inject({ url, headers: { 'x-app-key': TEST_APP_KEY } })
      }
      const log = lines.join('')
      expect(log).toContain('/api/v1/connect/config?sessionToken=[redacted]')
      expect(log).toContain('?Token=[redacted]')
      expect(log).toContain('?token=[redacted]') // %74oken, decoded before matching
      expect(log).toContain('?nonce=[redacted]')
      expect(log).toContain('?TOKEN=[redacted]&x=[redacted]')
      expect(log).toContain('?chainId=eip155%3A1&account=[redacted]')
      expect(log).toContain('/api/v1/connect/config?[redacted]')
      for (const value of secrets) expect(log).not.toContain(value)
    } finally {
      await app.close()
    }
  })

  it('ids in the path of an unknown route are logged hashed, like session ids', async () => {
    const lines: string[] = []
    const app = await buildApp({
      projects: { projects: [TEST_PROJECT] },
      logger: { level: 'info', destination: { write: (line: string) => lines.push(line) } },
    })
    try {
      const sessionId = randomBytes(16).toString('base64url')
      const hex = randomBytes(32).toString('hex')
      const base58 = '5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTJ'
      const short = 'a1b2c3d4e5'
      const urls = [
        `/api/v1/connect/session/${sessionId}/result`,
        `/api/v1/connect/nowhere/${hex}`,
        `/${base58}`,
        `/api/v1/connect/x/${short}/y`,
        `/api/v1/connect/sessions/${encodeURIComponent(sessionId)}%2F/result`,
      ]
      for (const url of urls) await app.inject({ url })
      const log = lines.join('')
      expect(log).toContain(`/api/v1/connect/session/${sessionLogId(sessionId)}/result`)
      expect(log).toContain(`/api/v1/connect/nowhere/${sessionLogId(hex)}`)
      expect(log).toContain(`"url":"/${sessionLogId(base58)}"`)
      expect(log).toContain(`/api/v1/connect/x/${sessionLogId(short)}/y`)
      for (const value of [sessionId, hex, base58, short]) expect(log).not.toContain(value)
      // Route words are never mistaken for ids.
      expect(loggedUrl('/api/v1/connect/transactions?waitMs=100')).toBe(
        '/api/v1/connect/transactions?waitMs=100',
      )
      expect(loggedUrl('/api/v1/connect/callback/transaction')).toBe(
        '/api/v1/connect/callback/transaction',
      )
    } finally {
      await app.close()
    }
  })
})
