import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { CodeServer } from '../test/harness/code-server.js';
import { runInExtensionHost } from '../test/harness/workbench.js';
import type { HostActivation } from './host/activation.js';

export const WEB_DATA_ID = 'webdata.webdata';
export const BASELINE_ID = 'webdata-bench.baseline';
const BASELINE_NAME = 'Web Data bench baseline';
const WEB_DATA_NAME = 'Web Data';

/** One extension's activation in one window: the host's marks and VS Code's own figure. */
export interface ActivationSample extends HostActivation {
  /**
   * VS Code's own figure, as "Developer: Show Running Extensions" shows it:
   * `codeLoadingTime + activateCallTime` of its `ExtensionActivationTimes`
   * (whole milliseconds, `Date.now()` deltas), read from that editor.
   */
  vscodeMs: number;
}

/**
 * The floor every extension pays: an extension that only registers one
 * command. Its main file `require`s `vscode` as any extension does, so its
 * activation holds the host's building of that extension's API object.
 */
export function writeBaselineExtension(folder: string): string {
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, 'package.json'),
    `${JSON.stringify(
      {
        name: 'baseline',
        displayName: BASELINE_NAME,
        publisher: 'webdata-bench',
        version: '0.0.1',
        engines: { vscode: '^1.100.0' },
        main: './extension.js',
        activationEvents: [],
        contributes: { commands: [{ command: 'webdataBench.baseline', title: 'Baseline' }] },
      },
      null,
      2,
    )}\n`,
  );
  writeFileSync(
    join(folder, 'extension.js'),
    [
      "const vscode = require('vscode');",
      'exports.activate = (context) => {',
      "  context.subscriptions.push(vscode.commands.registerCommand('webdataBench.baseline', () => undefined));",
      '};',
      '',
    ].join('\n'),
  );
  return folder;
}

/**
 * Activates Web Data and the baseline extension in `windows` fresh windows
 * (each a new extension host), alternating which goes first, and returns
 * every sample.
 */
export async function measureActivation(options: {
  codeServer: CodeServer;
  folder: string;
  extensionPath: string;
  baselinePath: string;
  hostEntry: string;
  orderFile: string;
  windows: number;
}): Promise<ActivationSample[]> {
  const samples: ActivationSample[] = [];
  for (let window = 0; window < options.windows; window += 1) {
    const order = window % 2 === 0 ? [WEB_DATA_ID, BASELINE_ID] : [BASELINE_ID, WEB_DATA_ID];
    writeFileSync(options.orderFile, JSON.stringify(order));
    const readFile = `${options.orderFile}.read`;
    rmSync(readFile, { force: true });
    let shown: Map<string, number> = new Map();
    const outcome = await runInExtensionHost({
      codeServerUrl: options.codeServer.url,
      folder: options.folder,
      extensionPath: [options.extensionPath, options.baselinePath],
      testsPath: options.hostEntry,
      timeoutMs: 120_000,
      // The host opens Running Extensions once both are active, and waits for this file before it
      // ends (the workbench forgets the host's extensions when its tests end).
      whileRunning: async (page) => {
        try {
          shown = await runningExtensions(page, [WEB_DATA_NAME, BASELINE_NAME]);
        } finally {
          writeFileSync(readFile, 'read\n');
        }
      },
    });
    if (outcome.code !== 0) throw new Error(`the activation bench failed:\n${outcome.lines.join('\n')}`);
    for (const line of outcome.lines) {
      const json = /BENCH (\{.*\})/.exec(line)?.[1];
      if (!json) continue;
      const host = JSON.parse(json) as HostActivation;
      const vscodeMs = shown.get(host.id === WEB_DATA_ID ? WEB_DATA_NAME : BASELINE_NAME);
      if (vscodeMs === undefined)
        throw new Error(`Running Extensions shows no activation time for ${host.id}`);
      samples.push({ ...host, vscodeMs });
    }
  }
  return samples;
}

/** The "Activation: N ms" of each named extension in the Running Extensions editor. */
async function runningExtensions(page: Page, names: string[]): Promise<Map<string, number>> {
  const times = new Map<string, number>();
  const rows = page.locator('.runtime-extensions-editor .extension');
  const deadline = Date.now() + 90_000;
  while (times.size < names.length) {
    if (Date.now() > deadline) {
      const seen = (await rows.allTextContents()).join(' | ');
      throw new Error(`Running Extensions did not show ${names.join(', ')}; it shows: ${seen}`);
    }
    for (const row of await rows.all()) {
      const name = (await row.locator('.name').textContent())?.trim() ?? '';
      const time = /Activation: (\d+)ms/.exec((await row.locator('.activation-time').textContent()) ?? '');
      if (names.includes(name) && time) times.set(name, Number(time[1]));
    }
    if (times.size < names.length) await page.waitForTimeout(200);
  }
  return times;
}

/** The median of some numbers (the mean of the middle two for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
