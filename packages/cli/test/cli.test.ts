import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type RealServer, startRealServer } from '@webdata/core/test-support/real-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT, runCli } from '../src/index.js';
import { startSite } from './site.js';

let site: Awaited<ReturnType<typeof startSite>>;
let server: RealServer;
let dataDir: string;

beforeAll(async () => {
  site = await startSite();
  dataDir = mkdtempSync(join(tmpdir(), 'webdata-cli-'));
  server = await startRealServer({ dataDir, allowPrivateNetworks: true, logLevel: 'silent' });
});

afterAll(async () => {
  await server?.close();
  await site?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Runs `webdata ARGS` in this process against the test server; output with ids, times and ports made stable. */
async function webdata(args: string[], env: NodeJS.ProcessEnv = {}, input?: string) {
  const stdin = new PassThrough();
  stdin.end(input ?? '');
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const chunks = { out: '', err: '' };
  stdout.on('data', (chunk) => (chunks.out += chunk));
  stderr.on('data', (chunk) => (chunks.err += chunk));
  const code = await runCli(args, {
    stdout,
    stderr,
    env: {
      WEBDATA_BASE_URL: server.url,
      WEBDATA_API_KEY: server.apiKey,
      WEBDATA_CONFIG: '',
      HOME: dataDir,
      ...env,
    },
    stdin,
  });
  return {
    code,
    stdout: chunks.out,
    stderr: chunks.err,
    text: stable(chunks.out),
    errors: stable(chunks.err),
  };
}

function stable(text: string): string {
  return text
    .replaceAll(site.url, 'http://site')
    .replaceAll(server.url, 'http://server')
    .replace(/\b(run|res)_[0-9a-z]{26}\b/g, '$1_ID')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, 'TIME');
}

describe('webdata (the command line) against the real server', () => {
  it('crawl --content markdown prints each page as Markdown, with a progress bar on stderr', async () => {
    const { code, text, errors } = await webdata([
      '--progress',
      'crawl',
      '--content',
      'markdown',
      `${site.url}/lamps`,
      `${site.url}/tides`,
    ]);
    expect(code).toBe(EXIT.ok);
    expect(text).toMatchSnapshot();
    expect(errors).toMatch(/crawl \[█+\] 2\/2 pages \| completed/);
    expect(errors).toMatch(/run run_ID completed: 2 succeeded, 0 failed\n$/);
  });

  it('crawl --json prints one JSON document that parses', async () => {
    const { code, stdout } = await webdata(['--json', 'crawl', '--content', 'markdown', `${site.url}/lamps`]);
    expect(code).toBe(EXIT.ok);
    const document = JSON.parse(stdout);
    expect(document.run.status).toBe('completed');
    expect(document.results).toHaveLength(1);
    expect(document.results[0].content).toContain('# Lamps');
    expect(document.results[0].url).toBe(`${site.url}/lamps`);
  });

  it('says with its exit code that a run finished with failed pages', async () => {
    const { code, text, errors } = await webdata([
      '--no-progress',
      'crawl',
      `${site.url}/tides`,
      `${site.url}/gone`,
    ]);
    expect(code).toBe(EXIT.runIncomplete);
    expect(text).toMatchSnapshot();
    expect(errors).toBe('run run_ID incomplete: 1 succeeded, 1 failed\n');
  });

  it('follows a site with --follow, extracts, and searches what it indexed', async () => {
    const crawled = await webdata(['crawl', '--follow', '--limit', '5', '--collection', 'cli', site.url]);
    expect(crawled.code).toBe(EXIT.ok);
    expect(crawled.text.split('\n').filter(Boolean).sort()).toEqual([
      'succeeded  200  http://site  Lighthouse keeping',
      'succeeded  200  http://site/lamps  Lamps',
      'succeeded  200  http://site/tides  Tides',
    ]);
    const found = await webdata(['search', '--collection', 'cli', 'trimmed', 'midnight']);
    expect(found.code).toBe(EXIT.ok);
    expect(found.text).toMatch(/^\d\.\d{3} {2}http:\/\/site\/lamps {2}Lamps\n {7}.*\*\*trimmed\*\*/);
    const schema = join(dataDir, 'product.schema.json');
    writeFileSync(
      schema,
      JSON.stringify({ type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } }),
    );
    const extracted = await webdata([
      '--json',
      'extract',
      '--query',
      'the product',
      '--schema',
      schema,
      `${site.url}/product`,
    ]);
    expect(extracted.code).toBe(EXIT.ok);
    expect(JSON.parse(extracted.stdout).results[0].data).toMatchObject({ name: 'Brass Lamp', price: 49.9 });
  });

  it("lists the key's collections, and names them when a search asks for one that does not exist", async () => {
    const listed = await webdata(['collections']);
    expect(listed.code).toBe(EXIT.ok);
    expect(listed.text).toMatch(/^cli {2}3 documents {2}TIME$/m);
    const mistyped = await webdata(['search', '--collection', 'clj', 'lamp']);
    expect(mistyped.code).toBe(EXIT.notFound);
    expect(mistyped.errors).toMatch(
      /^no collection "clj"; this key's collections: (.+, )?cli(, .+)? \(webdata collections/,
    );
    expect(mistyped.errors).toMatch(/\nwebdata: 404 not_found: /);
  });

  it('collections pages up to --limit, and says on stderr when there are more, as runs ls does', async () => {
    for (const collection of ['cli-a', 'cli-b']) {
      expect((await webdata(['crawl', '--collection', collection, `${site.url}/tides`])).code).toBe(EXIT.ok);
    }
    const one = await webdata(['collections', '--limit', '1']);
    expect(one.code).toBe(EXIT.ok);
    expect(one.text.trimEnd().split('\n')).toHaveLength(1);
    expect(one.errors).toBe(
      'more collections than the 1 shown (by name): list more with --limit (at most 10000)\n',
    );
    const page = JSON.parse((await webdata(['--json', 'collections', '--limit', '1'])).stdout);
    expect(page.data).toHaveLength(1);
    expect(page.next_cursor).toEqual(expect.any(String));
    const all = await webdata(['--json', 'collections', '--limit', '250']);
    expect(all.stderr).toBe('');
    expect(JSON.parse(all.stdout).data.map((collection: { name: string }) => collection.name)).toEqual(
      expect.arrayContaining(['cli', 'cli-a', 'cli-b']),
    );
    expect(JSON.parse(all.stdout).next_cursor).toBeNull();
    expect((await webdata(['collections', '--limit', '0'])).code).toBe(EXIT.usage);
  });

  it('lists, shows, cancels, retries and deletes runs, and prints results again', async () => {
    const detached = await webdata(['crawl', '--detach', `${site.url}/lamps`]);
    expect(detached.code).toBe(EXIT.ok);
    const id = detached.stdout.trim();
    expect(id).toMatch(/^run_/);
    // Results of a run still going are refused (exit 9) unless --unfinished; it may already be done.
    const early = await webdata(['results', id]);
    expect([EXIT.ok, EXIT.conflict]).toContain(early.code);
    expect((await webdata(['results', id, '--unfinished'])).code).toBe(EXIT.ok);
    const listed = await webdata(['runs', 'ls', '--limit', '3']);
    expect(listed.code).toBe(EXIT.ok);
    expect(listed.text.split('\n')[0]).toMatch(/^run_ID {2}\w+ +crawl +\d+\/\d+ {2}http:\/\/site/);
    let shown = await webdata(['runs', 'get', id]);
    for (let i = 0; i < 50 && !shown.text.includes('status:   completed'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      shown = await webdata(['runs', 'get', id]);
    }
    expect(shown.text).toMatchSnapshot();
    const results = await webdata(['results', id, '--content', 'markdown']);
    expect(results.code).toBe(EXIT.ok);
    expect(results.text).toMatchSnapshot();
    expect(results.errors).toBe('');
    // The crawl stored Markdown only: asked for its text, the pages print empty and stderr says why.
    const unstored = await webdata(['results', id, '--content', 'text']);
    expect(unstored.code).toBe(EXIT.ok);
    expect(unstored.errors).toContain('1 of 1 pages have no text content: the run did not store that format');
    expect((await webdata(['runs', 'cancel', id])).code).toBe(EXIT.conflict);
    expect((await webdata(['runs', 'retry', id])).code).toBe(EXIT.conflict);
    const removed = await webdata(['runs', 'rm', id]);
    expect(removed.text).toBe('deleted run_ID\n');
    // Its page left the search collection with it: said, not left for the next search to find out.
    expect(removed.errors).toBe(
      'its pages are no longer found by search in collection "default", unless another run indexed them too\n',
    );
    const missing = await webdata(['runs', 'get', id]);
    expect(missing.code).toBe(EXIT.notFound);
    expect(missing.errors).toMatch(/^webdata: 404 not_found: /);
  });

  it('exits 2 without a key or with bad arguments, 7 with a wrong key, 10 when the server is unreachable', async () => {
    const noKey = await webdata(['runs', 'ls'], { WEBDATA_API_KEY: '' });
    expect(noKey.code).toBe(EXIT.usage);
    expect(noKey.errors).toMatch(
      /no API key: set WEBDATA_API_KEY, or put \{"apiKey": "…"\} in .*config\.json/,
    );
    const config = join(dataDir, 'config.json');
    writeFileSync(config, JSON.stringify({ apiKey: server.apiKey, baseUrl: server.url }));
    const fromConfig = await webdata(['runs', 'ls'], {
      WEBDATA_API_KEY: '',
      WEBDATA_BASE_URL: undefined,
      WEBDATA_CONFIG: config,
    });
    expect(fromConfig.code).toBe(EXIT.ok);
    expect((await webdata(['crawl', '--content', 'pdf', site.url])).code).toBe(EXIT.usage);
    expect((await webdata(['crawl', 'not-a-url'])).code).toBe(EXIT.usage);
    const wrongKey = await webdata(['runs', 'ls'], { WEBDATA_API_KEY: 'wd_wrong_key_0123456789' });
    expect(wrongKey.code).toBe(EXIT.unauthorized);
    expect(wrongKey.errors).not.toContain('wd_wrong_key_0123456789');
    const unreachable = await webdata(['--base-url', 'http://127.0.0.1:9', 'runs', 'ls']);
    expect(unreachable.code).toBe(EXIT.unavailable);
  });

  it('watches a detached run to its end (the detach note names the command) under list and delete aliases', async () => {
    const detached = await webdata(['crawl', '--detach', `${site.url}/tides`, `${site.url}/gone`]);
    const id = detached.stdout.trim();
    expect(detached.errors).toMatch(/follow it with: webdata runs watch run_ID\n$/);
    const watched = await webdata(['runs', 'watch', id]);
    expect(watched.code).toBe(EXIT.runIncomplete);
    expect(watched.text.split('\n').filter(Boolean).sort()).toEqual([
      'failed  404  http://site/gone  http_error: HTTP 404 from http://site/gone',
      'succeeded  200  http://site/tides  Tides',
    ]);
    expect(watched.errors).toBe('run run_ID incomplete: 1 succeeded, 1 failed\n');
    const asJson = await webdata(['--json', 'runs', 'watch', id, '--content', 'markdown']);
    expect(JSON.parse(asJson.stdout).run.status).toBe('incomplete');
    expect((await webdata(['runs', 'list', '--limit', '1'])).text).toMatch(/^run_ID {2}incomplete/);
    expect((await webdata(['runs', 'delete', id])).text).toBe('deleted run_ID\n');
    expect((await webdata(['runs', 'watch', id])).code).toBe(EXIT.notFound);
  });

  it("saves a run's screenshots as PNG files, or lists their signed URLs", async () => {
    const crawled = await webdata(['crawl', '--screenshot', `${site.url}/lamps`]);
    expect(crawled.code).toBe(EXIT.ok);
    const [run] =
      (await webdata(['--json', 'runs', 'ls', '--limit', '1'])).stdout.match(/run_[0-9a-z]{26}/) ?? [];
    const listed = await webdata(['screenshots', run!]);
    expect(listed.code).toBe(EXIT.ok);
    expect(listed.text).toMatch(
      /^http:\/\/site\/lamps {2}http:\/\/server\/api\/v1\/signed\/screenshots\/run_ID\/res_ID\?/,
    );
    const dir = join(dataDir, 'shots');
    const saved = await webdata(['screenshots', run!, '--out', dir]);
    expect(saved.code).toBe(EXIT.ok);
    const file = join(dir, `${new URL(site.url).host.replace(':', '_')}_lamps.png`);
    expect(saved.stdout).toBe(`${file}  ${site.url}/lamps\n`);
    expect(readFileSync(file).subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    const plain = await webdata(['crawl', '--detach', `${site.url}/tides`]);
    const none = await webdata(['screenshots', plain.stdout.trim()]);
    expect(none.code).toBe(EXIT.ok);
    expect(none.text).toBe('');
    expect(none.errors).toContain('has no screenshots');
    expect(none.errors).toContain('--screenshot');
  });

  it('says what is wrong with a bad server address, an unreachable server and a refused key', async () => {
    const bad = await webdata(['--base-url', 'localhost:8787', 'runs', 'ls']);
    expect(bad.code).toBe(EXIT.usage);
    expect(bad.errors).toBe(
      'webdata: the server address "localhost:8787" (from --base-url) is not an http:// or https:// URL, like http://127.0.0.1:8787\n',
    );
    const fromEnv = await webdata(['runs', 'ls'], { WEBDATA_BASE_URL: 'example.org' });
    expect(fromEnv.code).toBe(EXIT.usage);
    expect(fromEnv.errors).toContain('(from WEBDATA_BASE_URL)');
    const down = await webdata(['--base-url', 'http://127.0.0.1:9', 'runs', 'ls']);
    expect(down.code).toBe(EXIT.unavailable);
    expect(down.errors).toContain('no webdata server answered at http://127.0.0.1:9');
    const refused = await webdata(['runs', 'ls'], { WEBDATA_API_KEY: 'wd_wrong_key_0123456789' });
    expect(refused.errors).toContain('the key came from WEBDATA_API_KEY');
  });

  it('names every refused field with the value given, and the scheme a bare domain lacks', async () => {
    const refused = await webdata(['crawl', 'example.org', `${site.url}/tides`, 'ftp://x/']);
    expect(refused.code).toBe(EXIT.usage);
    expect(refused.errors).toBe(
      [
        'webdata: invalid crawl request:',
        '  urls.0 "example.org": must be an absolute http or https URL (with its scheme: https://example.org)',
        '  urls.2 "ftp://x/": must be an absolute http or https URL',
        '',
      ].join('\n'),
    );
    const schema = join(dataDir, 'string.schema.json');
    writeFileSync(schema, '{"type": "string"}');
    const extract = await webdata(['extract', '--schema', schema, `${site.url}/product`]);
    expect(extract.code).toBe(EXIT.usage);
    expect(extract.errors.split('\n').slice(0, 3)).toEqual([
      'webdata: invalid extract request:',
      '  schema.type "string": the schema must have type "object"',
      expect.stringMatching(/^ {2}schema\.properties: /),
    ]);
  });

  it('reads the URLs from stdin for -, one a line, so another command can feed it', async () => {
    const piped = await webdata(
      ['crawl', '-'],
      {},
      `# two pages\n${site.url}/tides\n\n  ${site.url}/lamps  \n`,
    );
    expect(piped.code).toBe(EXIT.ok);
    expect(piped.text).toBe(
      'succeeded  200  http://site/tides  Tides\nsucceeded  200  http://site/lamps  Lamps\n',
    );
    const extracted = await webdata(
      ['--json', 'extract', '--query', 'the product', '-'],
      {},
      `${site.url}/product\n`,
    );
    expect(extracted.code).toBe(EXIT.ok);
    expect(JSON.parse(extracted.stdout).results[0].url).toBe(`${site.url}/product`);
    const none = await webdata(['crawl', '-'], {}, '\n# nothing\n');
    expect(none.code).toBe(EXIT.usage);
    expect(none.errors).toBe('webdata: no URLs on stdin (one a line)\n');
  });

  it('deep-crawl --max-depth 0 crawls the start page alone, as the contract allows', async () => {
    const alone = await webdata(['deep-crawl', '--max-depth', '0', site.url]);
    expect(alone.code).toBe(EXIT.ok);
    expect(alone.text).toBe('succeeded  200  http://site  Lighthouse keeping\n');
  });

  it('--help names the key and server settings and the exit codes; every option says what it does', async () => {
    const help = await webdata(['--help']);
    expect(help.code).toBe(EXIT.ok);
    expect(help.stdout).toContain('WEBDATA_API_KEY');
    expect(help.stdout).toContain('Exit codes:');
    expect(help.stdout).toContain('screenshots');
    for (const command of [['runs', 'ls'], ['runs', 'watch'], ['results'], ['screenshots'], ['crawl']]) {
      const { stdout } = await webdata([...command, '--help']);
      const options = stdout
        .split('Options:\n')[1]!
        .split('\n')
        .filter((line) => /^ {2}-/.test(line));
      for (const line of options) expect(line, `${command.join(' ')}: ${line}`).toMatch(/^ {2}\S.*\S {2,}\S/);
    }
    expect((await webdata(['runs', 'ls', '--help'])).stdout.replace(/\s+/g, ' ')).toContain(
      'runs at most, read page by page (default 20, at most 10000); stderr says when there are more',
    );
    expect(help.stdout).toContain('with --json, an error is one line of JSON on stderr');
    const tooMany = await webdata(['runs', 'ls', '--limit', '20000']);
    expect(tooMany.code).toBe(EXIT.usage);
    expect(tooMany.errors).toContain(
      "option '--limit <n>' argument '20000' is invalid. expected a whole number from 1 to 10000",
    );
    const usage = await webdata(['crawl']);
    expect(usage.code).toBe(EXIT.usage);
    expect(usage.errors).toContain("missing required argument 'urls'");
  });

  it('runs as a process: the bin prints Markdown and exits with the run code', async () => {
    const main = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'main.ts');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', main, 'crawl', '--content', 'markdown', `${site.url}/tides`],
      { env: { ...process.env, WEBDATA_BASE_URL: server.url, WEBDATA_API_KEY: server.apiKey } },
    );
    expect(stable(stdout)).toBe('<!-- http://site/tides -->\n# Tides\n\nHigh water comes twice a day.\n\n');
    const failing = await promisify(execFile)(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', main, 'runs', 'get', 'run_nope'],
      { env: { ...process.env, WEBDATA_BASE_URL: server.url, WEBDATA_API_KEY: server.apiKey } },
    ).catch((error: { code: number }) => error);
    expect((failing as { code: number }).code).toBe(EXIT.notFound);
  });

  it('--deadline stops waiting and leaves the run going; Ctrl-C cancels it, but not a run it only watches', async () => {
    const late = await webdata(['crawl', '--deadline', '0.3', `${site.url}/slow`]);
    expect(late.code).toBe(EXIT.deadline);
    expect(late.errors).toMatch(
      /did not finish within 300 ms; it goes on \(follow it with: webdata runs watch run_ID;/,
    );
    const id = late.stderr.match(/run_[0-9a-z]{26}/)![0];
    const watched = await webdata(['runs', 'watch', id]);
    expect(watched.code).toBe(EXIT.ok);
    expect(watched.text).toBe('succeeded  200  http://site/slow  Slow\n');

    const main = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'main.ts');
    const child = spawn(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', main, '--progress', 'crawl', `${site.url}/held`],
      { env: { ...process.env, WEBDATA_BASE_URL: server.url, WEBDATA_API_KEY: server.apiKey } },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    // The progress bar's first line says the run exists; then Ctrl-C.
    for (let i = 0; i < 100 && !stderr.includes('crawl ['); i++) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGINT');
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(code).toBe(130);
    expect(stderr).toMatch(
      /\nwebdata: interrupted: run (run_[0-9a-z]{26}) cancelled \(what it did so far: webdata results \1\)\n$/,
    );
    const last = JSON.parse((await webdata(['--json', 'runs', 'ls', '--limit', '1'])).stdout).data[0];
    expect(last.urls).toEqual([`${site.url}/held`]);
    expect(last.status).toBe('cancelled');

    // Watching is not owning: Ctrl-C on `runs watch` leaves the run going.
    const detached = (await webdata(['crawl', '--detach', `${site.url}/held`])).stdout.trim();
    const watcher = spawn(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', main, '--progress', 'runs', 'watch', detached],
      { env: { ...process.env, WEBDATA_BASE_URL: server.url, WEBDATA_API_KEY: server.apiKey } },
    );
    let watchErr = '';
    watcher.stderr.on('data', (chunk) => (watchErr += chunk));
    for (let i = 0; i < 100 && !watchErr.includes('watch ['); i++)
      await new Promise((r) => setTimeout(r, 50));
    watcher.kill('SIGINT');
    expect(await new Promise((resolve) => watcher.once('close', resolve))).toBe(130);
    expect(watchErr).toContain(
      `webdata: interrupted: stopped watching run ${detached}; it goes on (webdata runs watch ${detached})\n`,
    );
    site.releaseHeld();
    const after = await webdata(['runs', 'watch', detached]);
    expect(after.code).toBe(EXIT.ok);
    expect(after.text).toBe('succeeded  200  http://site/held  Held\n');
  });

  it('Ctrl-C while the run is being created still cancels the run the server made', async () => {
    // A proxy holds the creating POST's answer (a slow network): the server has made the run,
    // the command has no run id yet when Ctrl-C comes.
    const held: Array<() => void> = [];
    const proxy = createServer((req, res) => {
      const upstream = request(
        `${server.url}${req.url}`,
        { method: req.method, headers: req.headers },
        (answer) => {
          const pass = () => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          };
          if (req.method === 'POST' && req.url === '/api/v1/crawl' && held.length === 0) held.push(pass);
          else pass();
        },
      );
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const controller = new AbortController();
      const url = `${site.url}/slow?ctrl-c-while-creating`;
      const stderr = new PassThrough();
      let errors = '';
      stderr.on('data', (chunk) => (errors += chunk));
      const env = {
        WEBDATA_BASE_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
        WEBDATA_API_KEY: server.apiKey,
        WEBDATA_CONFIG: '',
        HOME: dataDir,
      };
      const stdin = new PassThrough();
      stdin.end('');
      const code = runCli(
        ['crawl', url],
        { stdout: new PassThrough(), stderr, env, stdin },
        controller.signal,
      );
      for (let i = 0; i < 100 && held.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(held).toHaveLength(1);
      controller.abort();
      expect(await code, errors).toBe(EXIT.interrupted);
      const ids = errors.match(/interrupted: run (run_[0-9a-z]{26}) cancelled/);
      expect(ids, errors).not.toBeNull();
      const runs = JSON.parse((await webdata(['--json', 'runs', 'ls', '--limit', '5'])).stdout).data;
      const made = runs.filter((run: { urls: string[] }) => run.urls[0] === url);
      expect(made).toHaveLength(1);
      expect(made[0]).toMatchObject({ id: ids![1], status: 'cancelled' });
    } finally {
      for (const pass of held) pass();
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
      site.releaseHeld();
    }
  });

  it('stops quietly with 141 when its reader goes away (`webdata runs ls | head`)', async () => {
    expect((await webdata(['crawl', '--detach', `${site.url}/tides`])).code).toBe(EXIT.ok);
    const main = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'main.ts');
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', main, 'runs', 'ls'], {
      env: { ...process.env, WEBDATA_BASE_URL: server.url, WEBDATA_API_KEY: server.apiKey },
    });
    // Closed before the command has loaded: its first line of output meets a closed pipe.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(141);
  });

  it('runs ls pages past one API page up to --limit, and says on stderr when there are more runs', async () => {
    for (const path of ['/tides', '/lamps']) {
      expect((await webdata(['crawl', '--detach', `${site.url}${path}`])).code).toBe(EXIT.ok);
    }
    const one = await webdata(['runs', 'ls', '--limit', '1']);
    expect(one.code).toBe(EXIT.ok);
    expect(one.text.trimEnd().split('\n')).toHaveLength(1);
    expect(one.errors).toBe(
      'more runs than the 1 shown (newest first): list more with --limit (at most 10000)\n',
    );
    const asJson = await webdata(['--json', 'runs', 'ls', '--limit', '1']);
    const page = JSON.parse(asJson.stdout);
    expect(page.data).toHaveLength(1);
    expect(page.next_cursor).toEqual(expect.any(String));
    // More than the API's page of 200: read page by page, every run there is, and nothing more to say.
    const all = await webdata(['--json', 'runs', 'ls', '--limit', '250']);
    expect(all.code).toBe(EXIT.ok);
    expect(all.stderr).toBe('');
    expect(JSON.parse(all.stdout).data.length).toBeGreaterThan(2);
    expect(JSON.parse(all.stdout).next_cursor).toBeNull();
  });

  it('search says on stderr when there are more hits than --limit shows', async () => {
    const all = await webdata(['--json', 'search', '--collection', 'cli', 'lamps']);
    const hits = JSON.parse(all.stdout).data.length;
    expect(hits).toBeGreaterThan(1);
    expect(all.stderr).toBe('');
    const first = await webdata(['search', '--collection', 'cli', '--limit', '1', 'lamps']);
    expect(first.code).toBe(EXIT.ok);
    expect(first.errors).toBe('more hits than the 1 shown: see more with --limit (at most 1000)\n');
  });

  it('results prints the URLs in the order given, not the order the pages finished', async () => {
    const detached = await webdata(['crawl', '--detach', `${site.url}/slow`, `${site.url}/lamps`]);
    const id = detached.stdout.trim();
    // /slow answers 1.5 s after /lamps: the server lists /lamps first.
    const watched = await webdata(['runs', 'watch', id]);
    const results = await webdata(['results', id]);
    const given = 'succeeded  200  http://site/slow  Slow\nsucceeded  200  http://site/lamps  Lamps\n';
    expect(results.text).toBe(given);
    expect(watched.text).toBe(given);
    const asJson = await webdata(['--json', 'results', id]);
    expect(JSON.parse(asJson.stdout).map((result: { url: string }) => result.url)).toEqual([
      `${site.url}/slow`,
      `${site.url}/lamps`,
    ]);
  });

  it('with --json, an error is one line of JSON on stderr (the contract error shape and the exit code), stdout empty', async () => {
    const parse = (stderr: string) => {
      expect(stderr.endsWith('\n')).toBe(true);
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      return JSON.parse(stderr);
    };
    const missing = await webdata(['--json', 'runs', 'get', 'run_00000000000000000000000000']);
    expect(missing.code).toBe(EXIT.notFound);
    expect(missing.stdout).toBe('');
    expect(parse(missing.stderr)).toEqual({
      error: {
        code: 'not_found',
        message: expect.stringContaining('404 not_found'),
        request_id: expect.any(String),
      },
      exit_code: EXIT.notFound,
    });
    const down = await webdata(['--json', '--base-url', 'http://127.0.0.1:9', 'runs', 'ls']);
    expect(down.code).toBe(EXIT.unavailable);
    expect(down.stdout).toBe('');
    expect(parse(down.stderr)).toEqual({
      error: {
        code: 'connection_failed',
        message: expect.stringContaining('no webdata server answered at http://127.0.0.1:9'),
      },
      exit_code: EXIT.unavailable,
    });
    const badFlag = await webdata(['--json', 'runs', 'ls', '--bogus']);
    expect(badFlag.code).toBe(EXIT.usage);
    expect(badFlag.stdout).toBe('');
    expect(parse(badFlag.stderr)).toEqual({
      error: { code: 'invalid_arguments', message: "unknown option '--bogus'" },
      exit_code: EXIT.usage,
    });
    const refused = await webdata(['--json', 'crawl', 'not-a-url']);
    expect(refused.code).toBe(EXIT.usage);
    expect(parse(refused.stderr).error).toMatchObject({
      code: 'invalid_request',
      details: [{ path: ['urls', '0'], message: expect.stringContaining('URL') }],
    });
    // Without --json, stderr stays prose.
    expect((await webdata(['runs', 'ls', '--bogus'])).stderr).toMatch(/^error: unknown option '--bogus'\n/);
  });
});
