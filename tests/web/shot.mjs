// A screenshot of one page, for looking at the pages by hand:
//   node tests/web/shot.mjs URL OUT.png [WIDTHxHEIGHT]
import { launchBrowser } from './browser.mjs';

const [url, out, size = '1280x900'] = process.argv.slice(2);
const [width, height] = size.split('x').map(Number);
const { browser, close } = await launchBrowser();
try {
  const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
  page.on('console', (m) => console.log(`console ${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
  await page.goto(url);
  await page.waitForTimeout(800);
  await page.screenshot({ path: out, fullPage: true });
} finally {
  await close();
}
