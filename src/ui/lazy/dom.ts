/** Attributes and listeners of `h()`: `on*` functions become listeners, the rest attributes. */
type Props = Record<string, string | boolean | null | undefined | ((event: Event) => void)>

/**
 * Creates an element: text children become text nodes (never HTML), so wallet names and other
 * outside strings cannot inject markup.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Array<Node | string | null | false>
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(props)) {
    if (typeof value === 'function') element.addEventListener(name.slice(2), value)
    else if (value === true) element.setAttribute(name, '')
    else if (typeof value === 'string') element.setAttribute(name, value)
  }
  for (const child of children) if (child !== null && child !== false) element.append(child)
  return element
}

/** A wallet's icon: its image, else a letter tile of its name (decorative: the name is beside it). */
export function walletIcon(name: string, src: string | null | undefined): HTMLElement {
  return src
    ? h('img', { class: 'icon', src, alt: '' })
    : h('span', { class: 'icon', 'aria-hidden': 'true' }, name.slice(0, 1))
}

/** Copies `text` to the clipboard; false when the page may not (no permission, no API). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    return false
  }
}
