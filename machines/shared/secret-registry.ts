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

/** A registry of secret values (kept in memory only). */
export function createSecretRegistry(): SecretRegistry {
  const secrets = new Set<string>()
  return {
    add(value) {
      if (value.length >= MIN_SECRET_LENGTH) secrets.add(value)
    },
    redact(value) {
      let out = value
      for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED)
      return out
    },
  }
}
