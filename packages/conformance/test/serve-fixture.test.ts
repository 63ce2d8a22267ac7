import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FIXTURE_PRODUCT } from '../src/fixture-site.js';

const script = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'serve-fixture.ts');
const start = (args: string[]) => spawn(process.execPath, ['--import', 'tsx', script, ...args]);

// What the README tells the owner of a foreign server to run, so the server can fetch the site.
describe('pnpm fixture (the fixture site for a foreign server)', () => {
  it('prints its URL, serves the fixture pages there, and stops on Ctrl-C', async () => {
    const child = start(['--port', '0']);
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
        if (out.includes('\n')) resolve(out.trim());
      });
      child.once('exit', (code) => reject(new Error(`exited ${code} before printing its URL`)));
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const product = await fetch(`${url}/product`);
    expect(product.status).toBe(200);
    expect(await product.text()).toContain(FIXTURE_PRODUCT.name);
    expect((await fetch(`${url}/missing`)).status).toBe(404);
    child.kill('SIGINT');
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(0);
  });

  it('refuses a port that is not one, exit 2', async () => {
    const child = start(['--port', 'eighty']);
    let err = '';
    child.stderr.on('data', (chunk) => (err += chunk));
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(2);
    expect(err).toContain('--port eighty is not a port number');
  });
});
