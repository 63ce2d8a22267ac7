import { defineConfig } from 'tsup';

// The package users install: ESM and CommonJS, each with its declarations.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  target: 'node20',
});
