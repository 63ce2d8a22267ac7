import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiKey } from './keys.js';
import { WebDataServer } from './server.js';

let dataDir: string | undefined;
let server: WebDataServer | undefined;

afterEach(async () => {
  await server?.close(0);
  server = undefined;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('WebDataServer.listen', () => {
  it('answers on its port, from the open store, before its converter threads have loaded; the workers start after', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'webdata-listen-'));
    const started = new WebDataServer({ dataDir, port: 0, logLevel: 'silent', convertThreads: 1 });
    server = started;
    const { key } = await createApiKey(started.store);
    const atListening = new Promise<{ loadedThreads: number; workers: boolean; status: number }>(
      (resolve, reject) => {
        started.app.server.once('listening', () => {
          // Read at once: what had started when the port opened (a quarter of a second of thread loading
          // used to come first, during which a restarted server refused connections).
          const loadedThreads = started['converter'].loadedThreads;
          const workers = started.pool?.['running'] === true;
          const address = started.app.server.address();
          const port = typeof address === 'object' && address ? address.port : 0;
          fetch(`http://127.0.0.1:${port}/api/v1/runs`, { headers: { 'x-api-key': key } }).then(
            (response) => resolve({ loadedThreads, workers, status: response.status }),
            reject,
          );
        });
      },
    );
    await started.listen();
    expect(await atListening).toEqual({ loadedThreads: 0, workers: false, status: 200 });
    expect(started['converter'].loadedThreads).toBe(1);
    expect(started.pool?.['running']).toBe(true);
  });
});
