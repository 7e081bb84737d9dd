import type { CreateSessionRequest, CreateSessionResponse } from 'scope-connect/wire'
import { hashSessionToken, newSessionToken } from '../auth/session-token'
import { hasChain, hasWallet } from '../config/project-index'
import { builtInNetwork } from '../config/projects'
import type { ProjectConfig } from '../config/projects-schema'
import type { AppContext } from '../context'
import { ApiError } from '../errors'
import { newNonce, newSessionId } from './ids'

/**
 * The project's chain, built-in or its own; an unknown chain (422) is told apart from a built-in
 * chain the project did not enable (403).
 */
export function assertChainEnabled(project: ProjectConfig, chainId: string): void {
  if (hasChain(project, chainId)) return
  // A project's own (custom) chain is unknown to the others: 422, as if it did not exist.
  if (builtInNetwork(chainId) === undefined) {
    throw new ApiError('UNSUPPORTED_CHAIN', `chain ${chainId} is not supported`)
  }
  throw new ApiError('CHAIN_NOT_ENABLED', `chain ${chainId} is not enabled for this project`)
}

export function assertWalletEnabled(project: ProjectConfig, walletSlug: string): void {
  if (!hasWallet(project, walletSlug)) {
    throw new ApiError('WALLET_NOT_ENABLED', `wallet ${walletSlug} is not enabled for this project`)
  }
}

export async function createSession(
  ctx: AppContext,
  project: ProjectConfig,
  request: CreateSessionRequest,
): Promise<CreateSessionResponse> {
  assertChainEnabled(project, request.caip2Chain)
  if (request.walletSlug !== undefined) assertWalletEnabled(project, request.walletSlug)
  const sessionToken = newSessionToken()
  const createdAt = ctx.now()
  const record = {
    sessionId: newSessionId(),
    projectId: project.projectId,
    tokenHash: hashSessionToken(sessionToken),
    nonce: newNonce(),
    caip2Chain: request.caip2Chain,
    walletSlug: request.walletSlug ?? null,
    intent: request.intent ?? 'connect',
    status: 'pending',
    walletAddress: null,
    signature: null,
    txSignature: null,
    errorCode: null,
    nonceUsed: false,
    createdAt,
    expiresAt: createdAt + ctx.sessionTtlMs,
    version: 1,
  } as const
  await ctx.store.createSession({ ...record })
  return {
    sessionId: record.sessionId,
    nonce: record.nonce,
    sessionToken,
    expiresAt: record.expiresAt,
  }
}
