// What the smaller browser tests share: skipping (exit 77) when a tool is
// missing, counting checks, screenshots, and a context per page (a tab
// behind another is throttled as a hidden tab is).
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const kSkip = 77;
export const kWait = 15000;
export const kPhone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
export const kDesktop = { viewport: { width: 1280, height: 900 } };
const here = fileURLToPath(new URL('.', import.meta.url));

export function skip(why) {
  console.log(`SKIP: ${why}`);
  process.exit(kSkip);
}

// Skips unless playwright-core and chromium are there; returns launchBrowser.
export async function browserOrSkip() {
  if (!existsSync(join(here, 'node_modules', 'playwright-core'))) skip('tests/web/node_modules is missing: run `npm ci --prefix tests/web` (.ci/dev deps does)');
  const { chromiumMissing, launchBrowser } = await import('./browser.mjs');
  if (chromiumMissing()) skip(chromiumMissing());
  return launchBrowser;
}

// Counts checks; prints each failed one, and with `all` (or
// VIVAREF_WEB_VERBOSE) each passed one too, with its time: the tests whose
// messages carry figures print them all.
export function checker(name, { all = Boolean(process.env.VIVAREF_WEB_VERBOSE) } = {}) {
  let passed = 0;
  let failed = 0;
  const t0 = Date.now();
  const check = (ok, what) => {
    if (all && ok) console.log(`${((Date.now() - t0) / 1000).toFixed(1)} s ok: ${what}`);
    if (ok) ++passed;
    else {
      ++failed;
      console.log(`FAIL: ${what}`);
    }
    return ok;
  };
  const fail = (e) => {
    ++failed;
    console.log(`FAIL: ${e.stack || e}`);
  };
  const finish = () => {
    console.log(`${name}: ${passed} passed, ${failed} failed (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    process.exit(failed ? 1 : 0);
  };
  return { check, fail, finish };
}

// Screenshots numbered in the order taken; the folder's old ones removed.
export function shooter(dir, prefix) {
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) if (f.startsWith(prefix) && f.endsWith('.png')) rmSync(join(dir, f));
  let n = 0;
  // `fullPage` false: what the screen shows (a phone's view of a long page).
  return async (page, name, { fullPage = true } = {}) => {
    n += 1;
    await page.screenshot({ path: join(dir, `${prefix}${String(n).padStart(2, '0')}-${name}.png`), fullPage });
  };
}

// Whether a console message is Chromium reporting a content security
// policy violation ("Refused to ... because it violates the following
// Content Security Policy directive").
export function isCspViolation(message) {
  return /Content Security Policy/i.test(message.text());
}

// A page in a browser context of its own; script errors and content
// security policy violations (the daemon's pages carry one) go to `errors`.
export async function newPage(browser, options, errors) {
  const ctx = await browser.newContext(options);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
  page.on('console', (m) => {
    if (isCspViolation(m)) errors.push(`${page.url()}: ${m.text()}`);
  });
  return page;
}

// The page's width in CSS pixels: no sideways scrolling on a phone.
export async function pageWidth(page) {
  return page.evaluate(() => document.documentElement.scrollWidth);
}
