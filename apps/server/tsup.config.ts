import { defineConfig } from 'tsup';

export default defineConfig({
  // The worker threads' scripts sit next to the bundle, where startWorkerThread looks for them.
  entry: {
    index: 'src/index.ts',
    main: 'src/main.ts',
    'convert-worker': 'src/content/convert-worker.ts',
    'schema-worker': 'src/extract/schema-worker.ts',
    'fill-worker': 'src/extract/fill-worker.ts',
    'batch-write-worker': 'src/store/sqlite/batch-write-worker.ts',
    'word-index-worker': 'src/search/word-index-worker.ts',
  },
  format: ['esm'],
  dts: { entry: 'src/index.ts' },
  clean: true,
  target: 'node20',
  // The workspace contract is bundled in; native and large dependencies stay external.
  noExternal: ['@webdata/contract'],
});
