import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/main.ts'],
  format: ['esm'],
  dts: { entry: 'src/index.ts' },
  clean: true,
  target: 'node20',
  // The workspace contract is bundled in; native and large dependencies stay external.
  noExternal: ['@webdata/contract'],
});
