import { defineConfig } from 'tsup';

export default defineConfig({
  // The converter thread's script sits next to the bundle, where ConverterPool looks for it.
  entry: { index: 'src/index.ts', main: 'src/main.ts', 'convert-worker': 'src/content/convert-worker.ts' },
  format: ['esm'],
  dts: { entry: 'src/index.ts' },
  clean: true,
  target: 'node20',
  // The workspace contract is bundled in; native and large dependencies stay external.
  noExternal: ['@webdata/contract'],
});
