import { type AnyActorRef, type AnyStateMachine, fromPromise } from 'xstate'
import { migrateStoredConnectionKind } from '../../../machines/client/client.connection-kind'
import {
  checkRestorable,
  persistWhileResumable,
  type RestoreCheck,
  type SnapshotMigrations,
} from '../../../machines/client/client.persistence'
import {
  LINK_RECORD_SCHEMA,
  linkRecordProblem,
} from '../../../machines/client/client.restore-values'
import type { SessionTokenVault } from '../../../machines/session-polling/session-polling.actors'
import { dropRetiredOutcome } from '../../../machines/shared/retired-outcome'
import type { SecretRegistry } from '../../../machines/shared/secret-registry'
import { createUniversalLinkActors } from '../../../machines/universal-link/universal-link.actors'
import {
  type UniversalLinkMachine,
  universalLinkMachine,
} from '../../../machines/universal-link/universal-link.machine'
import type {
  OpenWalletInput,
  UniversalLinkSession,
} from '../../../machines/universal-link/universal-link.types'
import { createLogger } from '../../logging'
import { getWalletInfo } from '../../registry'
import { GenericWalletSessionClient } from '../../session/client'
import { buildUniversalLinkUrl } from '../build-universal-link-url'
import type { UniversalLinkStore } from '../store'

const log = /* @__PURE__ */ createLogger('client')

/** What the `Client` hands the universal-link part it loads on demand. */
export interface ClientLinkHost {
  baseUrl: string
  appKey: string
  fetchImpl?: typeof fetch
  chainId: string
  openLink?: (url: string) => void
  returnUrl?: string
  dappName?: string
  migrations?: SnapshotMigrations
  vault: SessionTokenVault
  secrets: SecretRegistry
  /** The root machine with this universal-link machine in place. */
  rootMachine(link: UniversalLinkMachine): AnyStateMachine
  /** Tells the root actor the wallet is opened with `url`; resolves once the root has it. */
  walletOpened(url: string): Promise<void>
}

/** The schemes of the links a wallet registered (its universal link's, its deeplink base's). */
function walletSchemes(walletId: string): string[] {
  try {
    const info = getWalletInfo(walletId) as {
      mobile?: { universalLink?: string }
      phantomLink?: { baseUrl?: string }
    }
    const links = [info.mobile?.universalLink, info.phantomLink?.baseUrl]
    return links.flatMap((link) => {
      try {
        return link ? [new URL(link).protocol] : []
      } catch {
        return []
      }
    })
  } catch {
    return []
  }
}

/** A child actor of `parent` by id. */
function childOf(parent: AnyActorRef | undefined, id: string): AnyActorRef | undefined {
  const snapshot = parent?.getSnapshot() as { children?: Record<string, AnyActorRef | undefined> }
  return snapshot?.children?.[id]
}

/**
 * The universal-link part of the `Client`, in the chunk loaded with the universal-link connector:
 * the machine bound to the session client, vault and link opener; the fingerprint of the root
 * definition; the restore check; the persistence of the root actor while it is resumable.
 */
export function createClientLink(host: ClientLinkHost) {
  const session = new GenericWalletSessionClient(
    host.baseUrl,
    host.appKey,
    host.fetchImpl ? { fetchImpl: host.fetchImpl } : {},
  )
  /** The wallet's link for what the flow asks (the session, its chain, the method and payload). */
  const linkOf = (input: OpenWalletInput): string => {
    const returnUrl =
      host.returnUrl ?? (typeof window === 'undefined' ? undefined : window.location.href)
    return buildUniversalLinkUrl(getWalletInfo(input.walletId).mobile?.universalLink ?? '', {
      sessionId: input.session.sessionId,
      nonce: input.session.nonce,
      chainId: input.chainId,
      callbackUrl: session.baseUrl,
      method: input.method,
      ...(input.payload === null ? {} : { payload: input.payload }),
      ...(returnUrl === undefined ? {} : { returnUrl }),
      ...(host.dappName === undefined ? {} : { dappName: host.dappName }),
    })
  }
  /**
   * The root learns the link first (it may be mid-step: a signature it asked for opens the wallet
   * within its own transition), then the wallet opens. A link that fails to open is logged; the
   * flow goes on waiting (the view keeps the link to open by hand).
   */
  const openWallet = fromPromise<void, OpenWalletInput>(async ({ input }) => {
    const url = linkOf(input)
    await host.walletOpened(url)
    try {
      if (host.openLink) host.openLink(url)
      else if (typeof window !== 'undefined') window.location.assign(url)
      else log.warn('no browser window to open the wallet link in')
    } catch (error) {
      log.warn('opening the wallet link failed', error)
    }
  })
  const machine = universalLinkMachine.provide({
    actors: {
      ...createUniversalLinkActors(session, {
        intent: host.chainId.startsWith('solana:') ? 'transaction' : 'sign',
        vault: host.vault,
        onSecret: (value) => host.secrets.add(value),
      }),
      openWallet,
    },
  })
  const fingerprint = LINK_RECORD_SCHEMA
  return {
    machine,
    fingerprint,
    /** Checks a stored record; on success the vault gets its tokens. Logs why a record is discarded. */
    check(stored: unknown): RestoreCheck {
      const check = checkRestorable(
        dropRetiredOutcome(migrateStoredConnectionKind(stored), 'universalLink'),
        {
          machine: host.rootMachine(machine),
          fingerprint,
          state: 'link',
          values: (snapshot) => linkRecordProblem(snapshot, { walletSchemes }),
          ...(host.migrations ? { migrations: host.migrations } : {}),
        },
      )
      if (!check.ok) log.warn(`discarded the stored universal-link flow: ${check.reason}`)
      else {
        for (const [sessionId, token] of Object.entries(check.tokens)) {
          host.vault.set(sessionId, token)
          host.secrets.add(token)
        }
        // The restored session's nonce is a credential too (see `createUniversalLinkActors`).
        const nonce = (
          check.snapshot as {
            children?: {
              universalLink?: { snapshot?: { context?: { session?: { nonce?: unknown } | null } } }
            }
          }
        ).children?.universalLink?.snapshot?.context?.session?.nonce
        if (typeof nonce === 'string') host.secrets.add(nonce)
      }
      return check
    },
    /** Pending `after` timers are not restored: the restored poller looks the session up now. */
    pollNow(root: AnyActorRef) {
      childOf(childOf(root, 'universalLink'), 'poll')?.send({ type: 'POLL_NOW' })
    },
    /** Saves the root's deep snapshot (token beside it) while resumable; clears it after. */
    persist(root: AnyActorRef, store: UniversalLinkStore): () => void {
      const linkSession = () =>
        (
          childOf(root, 'universalLink')?.getSnapshot() as {
            context?: { session?: UniversalLinkSession | null }
          }
        )?.context?.session
      return persistWhileResumable(root, store, {
        fingerprint,
        state: 'link',
        child: 'universalLink',
        expiresAt: () => linkSession()?.expiresAt ?? 0,
        tokens: () => {
          const id = linkSession()?.sessionId
          const token = id ? host.vault.get(id) : undefined
          return id && token ? { [id]: token } : {}
        },
      })
    },
  }
}

export type ClientLink = ReturnType<typeof createClientLink>
