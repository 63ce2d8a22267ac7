import { defineConfig } from 'vitest/config';

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
  },
});
