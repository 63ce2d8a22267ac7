// `pnpm bench` (or `pnpm --filter @webdata/vscode bench`): what the extension costs.
// - Activation: the extension host's time to load the bundle and run `activate`, measured
//   inside a real VS Code (code-server); the budget is 50 ms.
// - Requests: with 1,000 runs in the Runs view, 50 of them in flight, the requests that reach
//   the real server (counted by a proxy in front of it) while the view is visible (budget
//   2 a second) and while it is hidden (budget 0). Baseline from the same run: the same 50 runs
//   followed with one `client.runs.watch(id)` each, over as long a time (no tree, no list refresh).
// The figures are printed against their budgets, not asserted (a bench does not fail on timing).
// WEBDATA_BENCH_VISIBLE_S / WEBDATA_BENCH_HIDDEN_S change how long each count lasts.
import { createClient } from '@webdata/core';
import { buildExtension } from '../test/harness/build-extension.js';
import { startCodeServer } from '../test/harness/code-server.js';
import { ensureCodeServer } from '../test/harness/code-server-install.js';
import { startEnvironment } from '../test/harness/environment.js';
import { runInExtensionHost } from '../test/harness/workbench.js';
import { startCountingProxy } from './counting-proxy.js';
import { seedRuns } from './seed-runs.js';

const RUNS = 1_000;
const IN_FLIGHT = 50;
const VISIBLE_MS = Number(process.env.WEBDATA_BENCH_VISIBLE_S ?? 30) * 1000;
const HIDDEN_MS = Number(process.env.WEBDATA_BENCH_HIDDEN_S ?? 15) * 1000;
const BUDGET = { activationMs: 50, visiblePerSecond: 2, hiddenPerSecond: 0 };

interface ActivationLine {
  measure: 'activation';
  wasActive: boolean;
  observedMs: number | null;
  loadMs: number;
  activateMs: number;
  totalMs: number;
}
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
    console.log(`seeding ${RUNS} runs, ${IN_FLIGHT} left in flight…`);
    const seeded = await seedRuns(environment.server, environment.site.url, RUNS, IN_FLIGHT);

    const codeServer = await startCodeServer({
      install,
      home: `${environment.scratch}/code-server`,
      settings: { 'webdata.baseUrl': proxy.url, 'webdata.runs.pageSize': 200 },
      env: {
        ...environment.env,
        WEBDATA_BENCH_PROXY_URL: proxy.url,
        WEBDATA_BENCH_API_KEY: environment.server.apiKey,
        WEBDATA_BENCH_VISIBLE_MS: String(VISIBLE_MS),
        WEBDATA_BENCH_HIDDEN_MS: String(HIDDEN_MS),
        WEBDATA_BENCH_RUNS: String(RUNS),
        WEBDATA_BENCH_IN_FLIGHT: String(IN_FLIGHT),
      },
    });
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
      return json ? [JSON.parse(json) as ActivationLine | ClientLine | RequestsLine] : [];
    });
    const activation = reported.find((line): line is ActivationLine => line.measure === 'activation');
    const requests = reported.find((line): line is RequestsLine => line.measure === 'requests');
    const clientLine = reported.find((line): line is ClientLine => line.measure === 'client');
    if (!activation || !requests) throw new Error(`the bench reported no figures:\n${lines.join('\n')}`);

    // Baseline: the same runs in flight, each followed on its own, as long as the view was counted.
    const client = createClient({ baseUrl: proxy.url, apiKey: environment.server.apiKey });
    const before = proxy.requests.length;
    const watches = seeded.inFlight.map((id) => client.runs.watch(id).subscribe({ error: () => undefined }));
    await new Promise((resolve) => setTimeout(resolve, VISIBLE_MS));
    const baseline = (proxy.requests.length - before) / (VISIBLE_MS / 1000);
    for (const watch of watches) watch.unsubscribe();
    await client.close();

    const ok = {
      activation: activation.totalMs < BUDGET.activationMs,
      visible: requests.visible.perSecond <= BUDGET.visiblePerSecond,
      hidden: requests.hidden.perSecond <= BUDGET.hiddenPerSecond,
    };
    const mark = (pass: boolean) => (pass ? 'ok' : 'OVER BUDGET');
    const fixed = (n: number) => n.toFixed(2);
    console.log('\nVS Code extension bench (code-server, real server behind a counting proxy)');
    console.log(
      `activation: ${activation.totalMs} ms of extension-host time (bundle load ${activation.loadMs} ms + activate ${activation.activateMs} ms)` +
        `${activation.observedMs !== null ? `; seen by the caller of activate(): ${activation.observedMs} ms` : ''}` +
        ` — budget ${BUDGET.activationMs} ms: ${mark(ok.activation)}`,
    );
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
