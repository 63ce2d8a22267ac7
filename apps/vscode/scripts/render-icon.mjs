// Renders media/icon.svg to media/icon.png (128×128, as the marketplace wants)
// with Chromium: `node scripts/render-icon.mjs media/icon.svg media/icon.png`.
// Run by hand when the icon changes; the PNG is committed.
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const [source, target] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.WEBDATA_CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const page = await browser.newPage({ viewport: { width: 128, height: 128 } });
await page.setContent(`<html><body style="margin:0">${readFileSync(source, 'utf8')}</body></html>`);
await page.screenshot({ path: target, omitBackground: true, clip: { x: 0, y: 0, width: 128, height: 128 } });
await browser.close();
