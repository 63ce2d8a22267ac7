// `pnpm bench` (or `pnpm --filter @webdata/vscode bench`): what the extension costs.
// - Activation: the extension host's time to activate the extension, inside a real VS Code
//   (code-server), in WEBDATA_BENCH_WINDOWS fresh windows (each its own extension host; median
//   printed), from the host's own performance marks around its loading of the code and its call
//   of `activate` (the spans of VS Code's `codeLoadingTime` and `activateCallTime`), beside the
//   same for an extension that only registers a command, activated in windows of its own,
//   interleaved (which of the two goes first alternates). The budget is 50 ms.
// - Requests: with 1,000 runs in the Runs view, 50 of them in flight, the requests that reach
//   the real server (counted by a proxy in front of it) while the view is visible (budget
//   2 a second) and while it is hidden (budget 0). Baseline from the same run: the same 50 runs
//   followed with one `client.runs.watch(id)` each, over as long a time (no tree, no list refresh).
// The figures are printed against their budgets, not asserted (a bench does not fail on timing).
// WEBDATA_BENCH_WINDOWS, WEBDATA_BENCH_VISIBLE_S and WEBDATA_BENCH_HIDDEN_S change how many
// windows and how long each count lasts; WEBDATA_BENCH_ACTIVATION_ONLY=1 stops after activation;
// WEBDATA_BENCH_EXTENSION=<folder> measures the activation of another staged build (say, an older
// commit's `out/extension`) instead of this one.
import { join } from 'node:path';
import { createClient } from '@webdata/core';
import { buildExtension } from '../test/harness/build-extension.js';
import { startCodeServer } from '../test/harness/code-server.js';
import { ensureCodeServer } from '../test/harness/code-server-install.js';
import { startEnvironment } from '../test/harness/environment.js';
import { runInExtensionHost } from '../test/harness/workbench.js';
import {
  type ActivationSample,
  BASELINE_ID,
  measureActivation,
  median,
  WEB_DATA_ID,
  writeBaselineExtension,
} from './activation.js';
import { startCountingProxy } from './counting-proxy.js';
import { seedRuns } from './seed-runs.js';

const RUNS = 1_000;
const IN_FLIGHT = 50;
const WINDOWS = Number(process.env.WEBDATA_BENCH_WINDOWS ?? 7);
const ACTIVATION_ONLY = process.env.WEBDATA_BENCH_ACTIVATION_ONLY === '1';
const VISIBLE_MS = Number(process.env.WEBDATA_BENCH_VISIBLE_S ?? 30) * 1000;
const HIDDEN_MS = Number(process.env.WEBDATA_BENCH_HIDDEN_S ?? 15) * 1000;
const BUDGET = { activationMs: 50, visiblePerSecond: 2, hiddenPerSecond: 0 };

interface ClientLine {
  measure: 'client';
  loadMs: number;
}
interface RequestsLine {
  measure: 'requests';
  runs: number;
  inFlight: number;
  visible: { requests: number; seconds: number; perSecond: number };
  hidden: { requests: number; seconds: number; perSecond: number };
}

const mark = (pass: boolean) => (pass ? 'ok' : 'OVER BUDGET');

/** The activation figures: medians over the windows, Web Data beside the baseline extension. */
function activationReport(samples: ActivationSample[]): string[] {
  const of = (id: string) => samples.filter((sample) => sample.id === id);
  const ours = of(WEB_DATA_ID);
  const baseline = of(BASELINE_ID);
  // JSON turns a missing mark's NaN into null: such a sample has no host figure.
  const hostMs = (s: ActivationSample) =>
    typeof s.loadCodeMs === 'number' && typeof s.activateMs === 'number'
      ? s.loadCodeMs + s.activateMs
      : Number.NaN;
  const m = (list: ActivationSample[], pick: (s: ActivationSample) => number | undefined) =>
    median(list.map(pick).filter((n): n is number => typeof n === 'number' && Number.isFinite(n)));
  const figure = m(ours, hostMs);
  const each = (list: ActivationSample[]) => list.map((s) => hostMs(s).toFixed(1)).join(', ');
  return [
    `activation, extension-host time (the host's marks: loading the code + activate() until settled), median of ${ours.length} windows:`,
    `  Web Data ${figure.toFixed(1)} ms [${each(ours)}] — budget ${BUDGET.activationMs} ms: ${Number.isFinite(figure) ? mark(figure < BUDGET.activationMs) : "NOT MEASURED (the host's marks were not found)"}`,
    `  baseline, an extension that registers one command, windows interleaved: ${m(baseline, hostMs).toFixed(1)} ms [${each(baseline)}]`,
    `  loading the code ${m(ours, (s) => s.loadCodeMs).toFixed(1)} ms (baseline ${m(baseline, (s) => s.loadCodeMs).toFixed(1)}), of which Web Data's first require("vscode"), the host building its API object, ${m(ours, (s) => s.vscodeApiMs).toFixed(1)} and the rest of its bundle's evaluation ${m(ours, (s) => s.bundleMs).toFixed(1)}; activate() until settled ${m(ours, (s) => s.activateMs).toFixed(1)} ms (baseline ${m(baseline, (s) => s.activateMs).toFixed(1)}); as the caller of activate() sees it ${m(ours, (s) => s.observedMs).toFixed(1)} ms (baseline ${m(baseline, (s) => s.observedMs).toFixed(1)})`,
  ];
}

// A function, not top-level await: tsx runs this package's TypeScript as CommonJS.
async function main(): Promise<void> {
  const install = ensureCodeServer();
  const built = buildExtension();
  const environment = await startEnvironment({
    // Seeding sends 2,000 requests at once; held pages must stay in flight for the whole bench.
    server: { rateLimitPerSecond: 100_000, rateLimitBurst: 100_000, pageTimeoutMs: 600_000 },
  });
  const proxy = await startCountingProxy(environment.server.url);
  try {
    const orderFile = join(environment.scratch, 'activation-order.json');
    const codeServer = await startCodeServer({
      install,
      home: `${environment.scratch}/code-server`,
      settings: { 'webdata.serviceAddress': proxy.url, 'webdata.runs.pageSize': 200 },
      env: {
        ...environment.env,
        WEBDATA_BENCH_ORDER_FILE: orderFile,
        WEBDATA_BENCH_PROXY_URL: proxy.url,
        WEBDATA_BENCH_API_KEY: environment.server.apiKey,
        WEBDATA_BENCH_VISIBLE_MS: String(VISIBLE_MS),
        WEBDATA_BENCH_HIDDEN_MS: String(HIDDEN_MS),
        WEBDATA_BENCH_RUNS: String(RUNS),
        WEBDATA_BENCH_IN_FLIGHT: String(IN_FLIGHT),
      },
    });
    let samples: ActivationSample[];
    try {
      console.log(`activating Web Data and an empty extension in ${WINDOWS} fresh windows…`);
      samples = await measureActivation({
        codeServer,
        folder: environment.workspace,
        extensionPath: process.env.WEBDATA_BENCH_EXTENSION ?? built.extensionPath,
        baselinePath: writeBaselineExtension(join(environment.scratch, 'baseline-extension')),
        hostEntry: built.activationHostPath,
        orderFile,
        windows: WINDOWS,
      });
    } catch (error) {
      await codeServer.stop();
      throw error;
    }
    const activation = activationReport(samples);
    if (ACTIVATION_ONLY) {
      await codeServer.stop();
      console.log(`\nVS Code extension bench (code-server)\n${activation.join('\n')}`);
      return;
    }

    console.log(`seeding ${RUNS} runs, ${IN_FLIGHT} left in flight…`);
    const seeded = await seedRuns(environment.server, environment.site.url, RUNS, IN_FLIGHT);

    let lines: string[];
    try {
      const outcome = await runInExtensionHost({
        codeServerUrl: codeServer.url,
        folder: environment.workspace,
        extensionPath: built.extensionPath,
        testsPath: built.benchHostPath,
        timeoutMs: 300_000 + VISIBLE_MS + HIDDEN_MS,
      });
      lines = outcome.lines;
      if (outcome.code !== 0) throw new Error(`the bench inside VS Code failed:\n${lines.join('\n')}`);
    } finally {
      await codeServer.stop();
    }
    const reported = lines.flatMap((line) => {
      const json = /BENCH (\{.*\})/.exec(line)?.[1];
      return json ? [JSON.parse(json) as ClientLine | RequestsLine] : [];
    });
    const requests = reported.find((line): line is RequestsLine => line.measure === 'requests');
    const clientLine = reported.find((line): line is ClientLine => line.measure === 'client');
    if (!requests) throw new Error(`the bench reported no figures:\n${lines.join('\n')}`);

    // Baseline: the same runs in flight, each followed on its own, as long as the view was counted.
    const client = createClient({ baseUrl: proxy.url, apiKey: environment.server.apiKey });
    const before = proxy.requests.length;
    const watches = seeded.inFlight.map((id) => client.runs.watch(id).subscribe({ error: () => undefined }));
    await new Promise((resolve) => setTimeout(resolve, VISIBLE_MS));
    const baseline = (proxy.requests.length - before) / (VISIBLE_MS / 1000);
    for (const watch of watches) watch.unsubscribe();
    await client.close();

    const ok = {
      visible: requests.visible.perSecond <= BUDGET.visiblePerSecond,
      hidden: requests.hidden.perSecond <= BUDGET.hiddenPerSecond,
    };
    const fixed = (n: number) => n.toFixed(2);
    console.log('\nVS Code extension bench (code-server, real server behind a counting proxy)');
    for (const line of activation) console.log(line);
    console.log(
      `client library (@webdata/core, loaded on first use, after activation): ${clientLine?.loadMs ?? '?'} ms`,
    );
    console.log(`runs in the view: ${requests.runs}, in flight: ${requests.inFlight}`);
    console.log(
      `visible: ${requests.visible.requests} requests in ${requests.visible.seconds} s = ${fixed(requests.visible.perSecond)}/s — budget ${BUDGET.visiblePerSecond}/s: ${mark(ok.visible)}`,
    );
    console.log(
      `hidden:  ${requests.hidden.requests} requests in ${requests.hidden.seconds} s = ${fixed(requests.hidden.perSecond)}/s — budget ${BUDGET.hiddenPerSecond}/s: ${mark(ok.hidden)}`,
    );
    // core's watch batches the runs watched at once into one long poll, so this baseline is already cheap.
    console.log(
      `baseline, the same ${IN_FLIGHT} runs followed with client.runs.watch(id) each (core batches them): ${fixed(baseline)}/s; the view: ${fixed(requests.visible.perSecond)}/s (ratio view/baseline ${
        baseline > 0 ? fixed(requests.visible.perSecond / baseline) : 'n/a'
      })`,
    );
  } finally {
    await proxy.close();
    await environment.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
