import * as vscode from 'vscode';
import type { WebDataExtension } from '../../src/extension.js';
import { COUNT_PATH } from '../counting-proxy.js';

/**
 * The bench's part inside VS Code's extension host, loaded the way the
 * integration suite is (`extensionTestsPath`): activates the extension,
 * fills the Runs view with every run on the server, then counts the
 * requests that reach the server (through the bench's counting proxy) while
 * the view is visible and while it is hidden. Prints `BENCH {json}` lines,
 * which the bench reads from the page's console.
 */
export async function run(): Promise<void> {
  const proxy = required('WEBDATA_BENCH_PROXY_URL');
  const apiKey = required('WEBDATA_BENCH_API_KEY');
  const visibleMs = Number(required('WEBDATA_BENCH_VISIBLE_MS'));
  const hiddenMs = Number(required('WEBDATA_BENCH_HIDDEN_MS'));
  const expectedRuns = Number(required('WEBDATA_BENCH_RUNS'));
  const expectedInFlight = Number(required('WEBDATA_BENCH_IN_FLIGHT'));

  const installed = vscode.extensions.getExtension<WebDataExtension>('webdata.webdata');
  if (!installed) throw new Error('the extension is not installed');
  // (Activation is measured apart, in fresh windows: bench/host/activation.ts.)
  const extension = await installed.activate();

  const { store, treeView } = await extension.services();
  await vscode.commands.executeCommand('webdata.setApiKey', apiKey);
  await vscode.commands.executeCommand('webdata.runs.focus');
  await waitFor('the first page of runs', () => store.listState.state === 'loaded' && store.runs.length > 0);
  while (store.hasMore) await vscode.commands.executeCommand('webdata.loadMore');
  if (store.runs.length !== expectedRuns || store.inFlightIds().length !== expectedInFlight) {
    throw new Error(
      `the view holds ${store.runs.length} runs, ${store.inFlightIds().length} in flight; expected ${expectedRuns} and ${expectedInFlight}`,
    );
  }
  report({ measure: 'client', loadMs: round(extension.clientLoadMs() ?? Number.NaN) });
  // Loading the list was the user's doing; what follows is what the view costs on its own.
  await sleep(3_000);
  const visible = await countOver(proxy, visibleMs);
  if (!treeView.visible) throw new Error('the Runs view was not visible while counting');
  await vscode.commands.executeCommand('workbench.view.explorer');
  await waitFor('the Runs view to hide', () => !treeView.visible);
  // Requests already on the wire when the view hid end (they are aborted); then nothing should go out.
  await sleep(2_000);
  const hidden = await countOver(proxy, hiddenMs);
  report({
    measure: 'requests',
    runs: store.runs.length,
    inFlight: store.inFlightIds().length,
    visible: { requests: visible, seconds: visibleMs / 1000, perSecond: visible / (visibleMs / 1000) },
    hidden: { requests: hidden, seconds: hiddenMs / 1000, perSecond: hidden / (hiddenMs / 1000) },
  });
}

async function countOver(proxy: string, ms: number): Promise<number> {
  const before = await count(proxy);
  await sleep(ms);
  return (await count(proxy)) - before;
}

async function count(proxy: string): Promise<number> {
  const response = await fetch(`${proxy}${COUNT_PATH}`);
  return ((await response.json()) as { requests: number }).requests;
}

function report(line: Record<string, unknown>): void {
  console.log(`BENCH ${JSON.stringify(line)}`);
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the bench with \`pnpm bench\``);
  return value;
}

async function waitFor(what: string, probe: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
