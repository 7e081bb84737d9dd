import { type Browser, chromium } from 'playwright-core'

/** Debian's headless Chromium, as every browser test here runs it (no sandbox, no GPU, no updates). */
function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  })
}

let shared: Promise<Browser> | undefined

/**
 * The worker's Chromium (`launchChromium`), launched for the first file that asks and kept for
 * the next: the files of a worker share its modules (vitest.config.ts), and a launch costs about a
 * second of CPU. Each file works in contexts of its own (a context is a fresh profile: storage,
 * cookies, permissions) and closes them after its tests (`closeContexts`). Playwright stops the
 * browser when the worker exits.
 */
export function sharedChromium(): Promise<Browser> {
  shared ??= launchChromium().then((browser) => {
    browser.once('disconnected', () => {
      shared = undefined
    })
    return browser
  })
  return shared
}

/** Closes the contexts still open in `browser` (a file's, after its tests: files run one at a time). */
export async function closeContexts(browser: Browser | undefined): Promise<void> {
  await Promise.all(browser?.contexts().map((context) => context.close()) ?? [])
}
