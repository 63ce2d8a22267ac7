/**
 * The client as a user outside this repository gets it: `@webdata/contract`
 * and `@webdata/core` are built and packed with `pnpm pack`, installed with
 * npm (dependencies from the npm registry) into a fresh project in the
 * system's temporary folder, a script is type-checked there in strict mode
 * (as ESM and as CommonJS, against the packages' own declarations) and run
 * against the real server.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureSite, startFixtureSite } from './fixture-site.js';
import { type RealServer, startRealServer } from './real-server.js';

const run = promisify(execFile);
const packages = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const coreVersion = JSON.parse(readFileSync(join(packages, 'core', 'package.json'), 'utf8'))
  .version as string;

let work: string;
let project: string;
let site: FixtureSite;
let server: RealServer;

/** Runs a command, failing with its output when it fails. */
async function sh(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  try {
    return await run(command, args, {
      cwd,
      env: { ...process.env, ...env },
      maxBuffer: 16 * 1024 * 1024,
      timeout: 180_000,
    });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${stdout ?? ''}\n${stderr ?? ''}`);
  }
}

const ESM_SCRIPT = `
import { collectRun, createClient, RunNotFinishedError, type RunStatus } from '@webdata/core';
import { isTerminalStatus } from '@webdata/contract';
import { z } from 'zod';

const client = createClient({ baseUrl: process.env.WEBDATA_BASE_URL!, apiKey: process.env.WEBDATA_API_KEY! });
const site = process.env.SITE_URL!;

const crawl = await collectRun(client.crawl({ urls: [site + '/a', site + '/b'] }, { content: 'markdown' }));
const status: RunStatus | (string & {}) = crawl.run.status;
// @ts-expect-error the status filter takes the known states only
await client.runs.list({ status: 'complted' }).catch(() => undefined);

const Article = z.object({ headline: z.string(), datePublished: z.date() });
const article = await collectRun(
  client.extract({ urls: [site + '/article'], query: 'headline and date', schema: Article }),
);
const published: Date | undefined = article.results[0]?.data?.datePublished;

console.log(
  JSON.stringify({
    status,
    terminal: isTerminalStatus(status),
    pages: crawl.results.map((r) => ({ url: r.url, markdown: typeof r.content === 'string' ? r.content : null })),
    published: published?.toISOString(),
    notFinishedError: typeof RunNotFinishedError,
  }),
);
await client.close();
`;

const CJS_SCRIPT = `
import { createClient, collectRun } from '@webdata/core';
import { RunLenient } from '@webdata/contract';

async function main(): Promise<void> {
  const client = createClient({ baseUrl: process.env.WEBDATA_BASE_URL!, apiKey: process.env.WEBDATA_API_KEY! });
  const { run } = await collectRun(client.crawl({ urls: [process.env.SITE_URL + '/c'] }));
  console.log(JSON.stringify({ status: RunLenient.parse(run).status, module: typeof module }));
  await client.close();
}
void main();
`;

/**
 * Writes `script` into the project as `file`, type-checks it with the
 * project's own TypeScript in strict mode (Node's ESM/CJS resolution, so the
 * `import` and `require` conditions and their declarations are the ones
 * used), runs the output against the test server and returns its stdout.
 */
async function typeCheckAndRun(
  file: string,
  script: string,
  options: { skipLibCheck: boolean },
): Promise<string> {
  writeFileSync(join(project, file), script);
  const tsconfig = `tsconfig.${file}.json`;
  writeFileSync(
    join(project, tsconfig),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: 'ES2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        outDir: 'out',
        types: ['node'],
        ...options,
      },
      files: [file],
    }),
  );
  await sh(join(project, 'node_modules', '.bin', 'tsc'), ['-p', tsconfig], project);
  const { stdout } = await sh('node', [join('out', file.replace(/\.(c?)ts$/, '.$1js'))], project, {
    WEBDATA_BASE_URL: server.url,
    WEBDATA_API_KEY: server.apiKey,
    SITE_URL: site.url,
  });
  return stdout.trim();
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'webdata-tarball-'));
  const tarballs = join(work, 'tarballs');
  mkdirSync(tarballs);
  // The README's command, as a user runs it.
  await sh('pnpm', ['run', 'pack:client', tarballs], join(packages, '..'));
  project = join(work, 'project');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'webdata-user', private: true, type: 'module' }, null, 2),
  );
  const files = readdirSync(tarballs).map((file) => join(tarballs, file));
  await sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...files, 'zod@4.6.7'], project);
  await sh(
    'npm',
    ['install', '--no-audit', '--no-fund', '--loglevel=error', '-D', 'typescript@5.9.3', '@types/node@20'],
    project,
  );
  site = await startFixtureSite();
  const dataDir = join(work, 'data');
  server = await startRealServer({ dataDir, allowPrivateNetworks: true, logLevel: 'silent' });
}, 300_000);

afterAll(async () => {
  await server?.close();
  await site?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed client, installed with npm outside the repository', () => {
  it('installs with every dependency resolved outside the workspace', () => {
    const installed = JSON.parse(
      readFileSync(join(project, 'node_modules', '@webdata', 'core', 'package.json'), 'utf8'),
    );
    expect(installed.version).toBe(coreVersion);
    expect(installed.dependencies['@webdata/contract']).toBe(coreVersion);
    expect(JSON.stringify(installed)).not.toContain('workspace:');
    expect(JSON.stringify(installed.exports)).not.toContain('source');
  });

  it('type-checks a strict ESM script and runs it against the real server', async () => {
    const output = JSON.parse(await typeCheckAndRun('main.ts', ESM_SCRIPT, { skipLibCheck: false }));
    expect(output.status).toBe('completed');
    expect(output.terminal).toBe(true);
    expect(output.pages).toHaveLength(2);
    for (const page of output.pages) expect(page.markdown).toMatch(/^# Page [AB]/m);
    expect(output.published).toBe('2026-11-20T08:30:00.000Z');
    expect(output.notFinishedError).toBe('function');
  }, 120_000);

  it('type-checks and runs the same client as CommonJS', async () => {
    const output = JSON.parse(await typeCheckAndRun('main.cts', CJS_SCRIPT, { skipLibCheck: true }));
    expect(output).toEqual({ status: 'completed', module: 'object' });
  }, 120_000);
});
