/**
 * The entry of `dist/core.js`: `@webdata/core` with its dependencies (zod,
 * undici), bundled apart from the extension so that activating the
 * extension does not load it. `scripts/build.mjs` points the extension's
 * imports of `@webdata/core` here, loaded on first use; see there.
 */
export * from '@webdata/core';
