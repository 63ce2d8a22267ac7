import { defineConfig } from 'tsup';

export default defineConfig([
  {
    // The package users install: ESM and CommonJS, each with its declarations.
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    target: 'node20',
  },
  {
    // The build step that writes openapi.json (not part of the API).
    entry: ['src/write-openapi.ts'],
    format: ['esm'],
    target: 'node20',
  },
]);
