import { type ConnectMessages, en } from './en'

/** The locales that ship besides English, each a lazy chunk. */
export type ConnectLocale = 'en' | 'es' | 'ar'

/** The messages the elements render with: English until `applyMessages` loads another locale. */
export const M: ConnectMessages = /* @__PURE__ */ Object.assign({}, en)

const LOCALES: Record<Exclude<ConnectLocale, 'en'>, () => Promise<ConnectMessages>> = {
  es: () => import('./es').then((m) => m.es),
  ar: () => import('./ar').then((m) => m.ar),
}

/**
 * Loads `locale` (a lazy chunk; English is already here), then applies `messages` over it. An
 * unknown locale keeps English; an override of an unknown key, or of another kind than English's
 * (a number for a string, a string for a function), is ignored: it could not render.
 */
export async function applyMessages(
  options: { locale?: string; messages?: Partial<ConnectMessages> } = {},
): Promise<void> {
  const load = LOCALES[options.locale as keyof typeof LOCALES]
  const base = load ? await load().catch(() => en) : en
  Object.assign(M, base)
  for (const [key, value] of Object.entries(Object(options.messages))) {
    if (typeof value === typeof en[key as keyof ConnectMessages]) Object.assign(M, { [key]: value })
  }
}
