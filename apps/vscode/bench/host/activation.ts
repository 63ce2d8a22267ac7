import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { WebDataExtension } from '../../src/extension.js';

/** What one extension's activation cost in this extension host, as the host's own marks say. */
export interface HostActivation {
  measure: 'host-activation';
  id: string;
  /** Milliseconds of the host's `require` of the extension's main file (marks `will/didLoadExtensionCode`). */
  loadCodeMs: number;
  /** Milliseconds from the host calling `activate` to the returned promise settling (marks `will/didActivateExtension`). */
  activateMs: number;
  /** Milliseconds `extension.activate()` took as this caller saw it (the host's bookkeeping too). */
  observedMs: number;
  /** Only for Web Data, from its bundle's own timers: the first `require("vscode")`, and the rest of the bundle. */
  vscodeApiMs?: number;
  bundleMs?: number;
}

/**
 * The activation bench's part inside VS Code's extension host, loaded as
 * `extensionTestsPath` into a fresh window: activates the extensions named
 * in the order file (`WEBDATA_BENCH_ORDER_FILE`, rewritten by the bench
 * before each window so that neither always goes first), nothing else
 * having activated them, and prints one `BENCH {json}` line each from the
 * host's own performance marks: `code/extHost/willLoadExtensionCode/<id>` to
 * `didLoadExtensionCode` brackets the host's `require` of the main file, the
 * span of VS Code's `codeLoadingTime`; `willActivateExtension` to
 * `didActivateExtension` brackets the call of `activate` until its result
 * settled, VS Code's `activateCallTime` and the wait for the result after it.
 */
export async function run(): Promise<void> {
  const orderFile = process.env.WEBDATA_BENCH_ORDER_FILE;
  if (!orderFile) throw new Error('WEBDATA_BENCH_ORDER_FILE is not set: run the bench with `pnpm bench`');
  const ids = JSON.parse(readFileSync(orderFile, 'utf8')) as string[];
  for (const id of ids) {
    const installed = vscode.extensions.getExtension(id);
    if (!installed) throw new Error(`${id} is not installed`);
    // Already active (one of its activation events came first): the host's marks are of that
    // activation, which is as real; only `observedMs` then says nothing.
    const started = performance.now();
    const exports: unknown = await installed.activate();
    const observedMs = performance.now() - started;
    const line: HostActivation = {
      measure: 'host-activation',
      id,
      loadCodeMs: round(between(id, 'willLoadExtensionCode', 'didLoadExtensionCode')),
      activateMs: round(between(id, 'willActivateExtension', 'didActivateExtension')),
      observedMs: round(observedMs),
    };
    if (isWebData(exports)) {
      line.vscodeApiMs = round(exports.vscodeApiMs);
      line.bundleMs = round(exports.loadMs - exports.vscodeApiMs);
    }
    console.log(`BENCH ${JSON.stringify(line)}`);
  }
}

/** VS Code's own store of performance marks: in a Node extension host not Node's `performance`, but an array of `Date.now()` times. */
interface MonacoPerformanceMarks {
  getMarks(): { name: string; startTime: number }[];
}

function between(id: string, start: string, end: string): number {
  const marks = (globalThis as { MonacoPerformanceMarks?: MonacoPerformanceMarks }).MonacoPerformanceMarks;
  const mark = (name: string) => {
    const full = `code/extHost/${name}/${id}`;
    const entry =
      marks?.getMarks().findLast((candidate) => candidate.name === full) ??
      performance.getEntriesByName(full, 'mark').at(-1);
    // A VS Code without these marks gives NaN (printed as such), not a failed bench.
    return entry ? entry.startTime : Number.NaN;
  };
  return mark(end) - mark(start);
}

function isWebData(exports: unknown): exports is WebDataExtension {
  return typeof exports === 'object' && exports !== null && 'vscodeApiMs' in exports;
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}
