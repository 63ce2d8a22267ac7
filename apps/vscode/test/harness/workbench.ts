import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

/** The part of `@webdata/server`'s Chromium lookup used here. */
interface ChromiumLookup {
  CHROMIUM_ARGS: readonly string[];
  locateChromium(
    configuredPath: undefined,
  ): { reason: string } | { prepare(): Promise<{ path: string; env: Record<string, string> }> };
}

/**
 * A Chromium with a fresh profile, sized like a laptop screen: the one the
 * server's own lookup finds (`WEBDATA_CHROMIUM_PATH`, the system's, else the
 * one bundled in an npm package), with the server's flags that keep it off the network.
 */
export async function launchBrowser(): Promise<BrowserContext> {
  // A computed specifier: type-checking this package must not type-check the server's sources.
  const specifier = '@webdata/server';
  const { CHROMIUM_ARGS, locateChromium } = (await import(specifier)) as ChromiumLookup;
  const location = locateChromium(undefined);
  if ('reason' in location) throw new Error(location.reason);
  const executable = await location.prepare();
  const profile = mkdtempSync(join(tmpdir(), 'webdata-vscode-chromium-'));
  return chromium.launchPersistentContext(profile, {
    executablePath: executable.path,
    env: { ...process.env, ...executable.env },
    args: [...CHROMIUM_ARGS],
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
