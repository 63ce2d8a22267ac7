import { defineConfig } from 'vitest/config';
import { findPostgres } from './src/store/postgres/throwaway-postgres.test-support.js';

// Without a PostgreSQL server on this machine the API suites run once, saying why; in CI they run
// (and fail) anyway: a skip is a failure there.
const postgres = findPostgres();
const onPostgres = !('reason' in postgres) || Boolean(process.env.CI);
if ('reason' in postgres && !onPostgres)
  console.warn(`skipping the api-on-postgres project: ${postgres.reason}`);

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup-fast-check.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Tests start real servers and Chromium; two cores do not like many at once.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'all' } },
      ...(onPostgres
        ? [
            {
              // The API suites again, on PostgreSQL (a throwaway cluster on 127.0.0.1, contents and screenshots
              // in the blob store): see test/test-server.ts. Suites whose subject is not the store (the API
              // reference page, schema compilation, starvation) run once.
              extends: true as const,
              test: {
                name: 'api-on-postgres',
                include: [
                  'test/runs.test.ts',
                  'test/errors.test.ts',
                  'test/owner-share.test.ts',
                  'test/crawl-delay-slots.test.ts',
                  'test/deep-crawl.test.ts',
                  'test/search-api.test.ts',
                  'test/documents-api.test.ts',
                  'test/search-embeddings-api.test.ts',
                  'test/extract-api.test.ts',
                  'test/screenshots-api.test.ts',
                  'test/fuzz.test.ts',
                ],
                env: { WEBDATA_TEST_STORE: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
