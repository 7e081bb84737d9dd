/**
 * Secret values seen by the system (session tokens, signatures, pairing URIs and keys, relay
 * tokens), for redaction by value.
 */
export interface SecretRegistry {
  add(value: string): void
  /** `value` with every known secret inside it replaced by `[redacted]`. */
  redact(value: string): string
}

/**
 * `REDACTED` of `src/logging`, spelled out: the `Client` entry holds this registry, and importing
 * the constant would make bundlers load a shared chunk for it up front (a test keeps them equal).
 */
const REDACTED = '[redacted]'

/** Shorter strings are not treated as secrets (they would redact ordinary words). */
const MIN_SECRET_LENGTH = 8

/**
 * The most secrets kept: a long-lived Client signs without end, and every signature is one. The
 * least recently added go first; a value added again counts as new.
 */
const MAX_SECRETS = 4096

/** A registry of secret values (kept in memory only, at most `MAX_SECRETS`). */
export function createSecretRegistry(): SecretRegistry {
  const secrets = new Set<string>()
  return {
    add(value) {
      if (value.length < MIN_SECRET_LENGTH) return
      secrets.delete(value)
      secrets.add(value)
      if (secrets.size > MAX_SECRETS) secrets.delete(secrets.values().next().value as string)
    },
    redact(value) {
      let out = value
      for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED)
      return out
    },
  }
}
