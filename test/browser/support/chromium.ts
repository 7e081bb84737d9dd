import { type Browser, chromium } from 'playwright-core'

/** Debian's headless Chromium, as every browser test here runs it (no sandbox, no GPU, no updates). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  })
}
