import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CodeServer } from '../test/harness/code-server.js';
import { runInExtensionHost } from '../test/harness/workbench.js';
import type { HostActivation } from './host/activation.js';

export const WEB_DATA_ID = 'webdata.webdata';
export const BASELINE_ID = 'webdata-bench.baseline';
const BASELINE_NAME = 'Web Data bench baseline';

/** One extension's activation in one window, from the extension host's own marks. */
export type ActivationSample = HostActivation;

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
 * Activates Web Data and the baseline extension, each in `windows` fresh
 * windows of its own (each a new extension host; code-server loads one
 * extension under development per window), interleaved and alternating
 * which goes first, and returns every sample.
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
  const both = [
    { id: WEB_DATA_ID, path: options.extensionPath },
    { id: BASELINE_ID, path: options.baselinePath },
  ];
  for (let window = 0; window < options.windows; window += 1) {
    for (const { id, path } of window % 2 === 0 ? both : [...both].reverse()) {
      writeFileSync(options.orderFile, JSON.stringify([id]));
      const outcome = await runInExtensionHost({
        codeServerUrl: options.codeServer.url,
        folder: options.folder,
        extensionPath: path,
        testsPath: options.hostEntry,
        timeoutMs: 120_000,
      });
      if (outcome.code !== 0) throw new Error(`the activation bench failed:\n${outcome.lines.join('\n')}`);
      for (const line of outcome.lines) {
        const json = /BENCH (\{.*\})/.exec(line)?.[1];
        if (json) samples.push(JSON.parse(json) as HostActivation);
      }
    }
  }
  return samples;
}

/** The median of some numbers (the mean of the middle two for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
