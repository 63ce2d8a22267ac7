import { format } from 'node:util';
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
 * Its profile is a temporary folder that Playwright removes once the browser
 * has exited (removed on the context's 'close', Chromium's helpers were still
 * writing to it).
 */
export async function launchBrowser(): Promise<BrowserContext> {
  // A computed specifier: type-checking this package must not type-check the server's sources.
  const specifier = '@webdata/server';
  const { CHROMIUM_ARGS, locateChromium } = (await import(specifier)) as ChromiumLookup;
  const location = locateChromium(undefined);
  if ('reason' in location) throw new Error(location.reason);
  const executable = await location.prepare();
  return chromium.launchPersistentContext('', {
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

/**
 * Chooses an item of the open context menu. A click right after the menu opened can be lost (seen
 * in CI with the bundled headless Chromium: the item highlighted, the menu still open 30 s on), so
 * the item is clicked again while the menu stays open; a click that took closes the menu at once.
 */
export async function chooseMenuItem(page: Page, label: string): Promise<void> {
  const menu = page.locator('.context-view');
  const item = page.locator('.context-view .action-label', { hasText: label });
  for (let attempt = 1; ; attempt++) {
    await item.click();
    try {
      await menu.waitFor({ state: 'hidden', timeout: 2_000 });
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
      if (!(await item.isVisible())) return;
    }
  }
}

/** The quick input's text box, once it shows. */
export async function quickInput(page: Page) {
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ state: 'visible' });
  return input;
}

/**
 * The text box of the quick input that a command opened, once the widget
 * shows `text` (its title, prompt or an item: not its placeholder, which is
 * no text) and no longer holds the
 * command palette's `>` query: typing earlier would go to the palette.
 */
export async function nextQuickInput(page: Page, text?: string) {
  if (text) await page.locator('.quick-input-widget', { hasText: text }).waitFor({ state: 'visible' });
  const input = await quickInput(page);
  const deadline = Date.now() + 10_000;
  while ((await input.inputValue()).startsWith('>')) {
    if (Date.now() > deadline)
      throw new Error(`the quick input still holds the palette's query (${text ?? ''})`);
    await page.waitForTimeout(50);
  }
  return input;
}

/** Monaco draws spaces as U+00A0: compare text with ordinary spaces. */
export function normaliseSpaces(text: string): string {
  return text.replace(/\u00a0/g, ' ');
}

/** How a suite loaded into VS Code ended: the runner's exit code and the extension host's console. */
export interface HostRun {
  code: number;
  /** The extension host's console lines (mocha's reporter, `console.log`), as `type: text`. */
  lines: string[];
}

/**
 * Loads the extension from `extensionPath` into the workbench of `codeServerUrl`
 * with `testsPath` as VS Code's `extensionTestsPath` (an entry exporting
 * `run(): Promise<void>`), and resolves once VS Code reports its outcome
 * (0 when `run` resolved). Needs code-server's smoke test driver.
 */
export async function runInExtensionHost(options: {
  codeServerUrl: string;
  folder: string;
  /** The extension under development (several: each is loaded). */
  extensionPath: string | string[];
  testsPath: string;
  timeoutMs: number;
}): Promise<HostRun> {
  const host = new URL(options.codeServerUrl).host;
  const remote = (path: string) => `vscode-remote://${host}${path}`;
  const context = await launchBrowser();
  const lines: string[] = [];
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    let finish: (code: number) => void = () => undefined;
    const exitCode = new Promise<number>((resolve) => {
      finish = resolve;
    });
    await page.exposeFunction('codeAutomationExit', (code: number) => finish(code));
    // VS Code forwards the extension host's console as format string and arguments.
    await page.exposeFunction('codeAutomationLog', (type: string, args: unknown[]) => {
      lines.push(`${type}: ${format(...args)}`);
    });
    await page.goto(
      workbenchUrl(options.codeServerUrl, options.folder, [
        ...[options.extensionPath]
          .flat()
          .map((path): [string, string] => ['extensionDevelopmentPath', remote(path)]),
        ['extensionTestsPath', remote(options.testsPath)],
      ]),
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const code = await Promise.race([
      exitCode,
      new Promise<number>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`VS Code did not report an outcome within ${options.timeoutMs / 1000} s`)),
          options.timeoutMs,
        );
      }),
    ]).finally(() => clearTimeout(timer));
    return { code, lines };
  } finally {
    await context.close();
  }
}
