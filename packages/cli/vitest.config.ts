import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: { testTimeout: 30_000, hookTimeout: 60_000, maxWorkers: 2 },
});
