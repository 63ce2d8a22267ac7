import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENDPOINTS } from '@webdata/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebDataServer } from '../server.js';

let dataDir: string;
let server: WebDataServer;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'webdata-routes-'));
  server = new WebDataServer({ dataDir, logLevel: 'silent', runWorkers: false });
  await server.app.ready();
});

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('routes', () => {
  it('serve every endpoint of the contract (and so of the OpenAPI document)', () => {
    for (const endpoint of ENDPOINTS) {
      const url = endpoint.path.replace(/\{(\w+)\}/g, ':$1');
      const method = endpoint.method.toUpperCase() as 'GET' | 'POST' | 'DELETE';
      expect(server.app.hasRoute({ method, url }), `${method} ${url}`).toBe(true);
    }
  });
});

describe('routes declared from the contract', () => {
  it('ask for a key exactly where the contract says so', async () => {
    for (const endpoint of ENDPOINTS) {
      const url = endpoint.path.replace(/\{(\w+)\}/g, 'x');
      const method = endpoint.method.toUpperCase() as 'GET' | 'POST' | 'DELETE';
      const anonymous = await server.app.inject({ method, url });
      expect(anonymous.statusCode === 401, `${method} ${url}: ${anonymous.statusCode}`).toBe(
        endpoint.authenticated,
      );
    }
  });
});
