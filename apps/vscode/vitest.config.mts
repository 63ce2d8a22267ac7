import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    // Unit tests sit beside the code; the real-VS-Code tests are `test/*.test.ts`.
    // The mocha suite under test/suite runs inside VS Code, not here.
    include: ['src/**/*.test.ts', 'test/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The real-VS-Code tests share one code-server install and one Chromium: run files one at a time.
    fileParallelism: false,
  },
});
