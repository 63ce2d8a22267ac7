import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type ResourceLimits, Worker } from 'node:worker_threads';

/**
 * Starts the worker thread script `name` that sits beside the calling module
 * (`callerUrl`: its `import.meta.url`): the built `name.js` next to the
 * bundle, or, when running from the TypeScript sources (tests, tsx),
 * `name.ts` loaded through tsx's loader registered inside the thread.
 */
export function startWorkerThread(name: string, callerUrl: string, resourceLimits: ResourceLimits): Worker {
  const built = new URL(`./${name}.js`, callerUrl);
  if (existsSync(fileURLToPath(built))) return new Worker(built, { resourceLimits });
  const tsx = createRequire(import.meta.url)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs');
  const source = new URL(`./${name}.ts`, callerUrl).href;
  const bootstrap = `import(${JSON.stringify(pathToFileURL(tsx).href)}).then((api) => { api.register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(bootstrap, { eval: true, resourceLimits });
}
