// Debian's chromium, headless, driven by playwright-core (which never
// downloads a browser of its own). Playwright gives every launch a fresh,
// empty profile (user-data-dir) and removes it at close; no background
// networking: the machine has no network but the loopback.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

export const kChromium = process.env.VIVAREF_CHROMIUM || '/usr/bin/chromium';

export function chromiumMissing() {
  return existsSync(kChromium) ? null : `${kChromium} is missing (Debian package chromium)`;
}

export async function launchBrowser() {
  const browser = await chromium.launch({
    executablePath: kChromium,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return { browser, close: () => browser.close().catch(() => {}) };
}
