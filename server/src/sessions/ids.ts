import { randomBytes } from 'node:crypto'

/** 16 random bytes (base64url, 22 characters): unguessable, unlike a counter or a UUIDv1. */
export const newSessionId = (): string => randomBytes(16).toString('base64url')

/** From the platform CSPRNG (not Math.random, hence not viem's generateSiweNonce). */
export const newNonce = (): string => randomBytes(16).toString('base64url')
