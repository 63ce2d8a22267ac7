import { accessSync, constants, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

/**
 * Chromium for driving the workbench: `WEBDATA_CHROMIUM_PATH`, else the
 * system's. Without either the test fails and says how to get one.
 */
export function chromiumPath(): string {
  const candidates = [
    process.env.WEBDATA_CHROMIUM_PATH,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
  ].filter((path): path is string => Boolean(path));
  for (const path of candidates) {
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // Next.
    }
  }
  throw new Error(
    `Chromium was not found (looked in ${candidates.join(', ')}): install it (apt-get install chromium) or set WEBDATA_CHROMIUM_PATH`,
  );
}

// Headless, and quiet on a closed network (no background fetches, sync, QUIC).
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A Chromium with a fresh profile, sized like a laptop screen. */
export async function launchBrowser(): Promise<BrowserContext> {
  const profile = mkdtempSync(join(tmpdir(), 'webdata-vscode-chromium-'));
  return chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    args: CHROMIUM_FLAGS,
    headless: true,
    viewport: { width: 1400, height: 900 },
  });
}

/** The page URL that opens `folder` in the workbench, with `payload` entries (smoke test driver). */
export function workbenchUrl(
  codeServerUrl: string,
  folder: string,
  payload: [string, string][] = [],
): string {
  const url = new URL(codeServerUrl);
  url.searchParams.set('folder', folder);
  if (payload.length > 0) url.searchParams.set('payload', JSON.stringify(payload));
  return url.href;
}

/** Waits for the workbench to be there (the activity bar is drawn). */
export async function waitForWorkbench(page: Page): Promise<void> {
  await page.locator('.monaco-workbench .activitybar').waitFor({ timeout: 60_000 });
}

/** Runs a command from the palette, by (the start of) its title. */
export async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor();
  await input.fill(`>${title}`);
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first();
  await row.waitFor();
  await page.keyboard.press('Enter');
}

/** The quick input's text box, once it shows. */
export async function quickInput(page: Page) {
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ state: 'visible' });
  return input;
}

/** Monaco draws spaces as U+00A0: compare text with ordinary spaces. */
export function normaliseSpaces(text: string): string {
  return text.replace(/\u00a0/g, ' ');
}
