import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A getter for a CommonJS package that is required on the getter's first call, not when the
 * importing module loads: for packages that cost a server's start (or a worker thread's) tens
 * or hundreds of milliseconds of CPU to import and that many servers never use (the PostgreSQL
 * driver on the embedded store, linkedom on a converter thread whose pages all take the light
 * tree, RE2 without an extraction schema). `require` is synchronous, so synchronous code (a
 * constructor, Ajv's compile) can call the getter. `pick` takes the part of the package's
 * exports that is wanted (default: all of them).
 *
 * @example
 * ```ts
 * const pg = requiredOnFirstUse<typeof import('pg')>('pg');
 * const pool = new (pg().Pool)({ connectionString });
 * ```
 */
export function requiredOnFirstUse<T>(
  specifier: string,
  pick: (exports: unknown) => T = (e) => e as T,
): () => T {
  let loaded: { value: T } | undefined;
  return () => {
    loaded ??= { value: pick(require(specifier)) };
    return loaded.value;
  };
}
