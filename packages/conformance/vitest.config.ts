import { defineConfig } from 'vitest/config';

/** Workspace packages resolve to their TypeScript sources (the `source` export condition). */
const conditions = ['source', 'module', 'node', 'development|production'];

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions } },
  // The global setup (which starts our server) runs in vitest's own environment; it needs the sources too.
  environments: { __vitest__: { resolve: { conditions } } },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['./src/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
  },
});
