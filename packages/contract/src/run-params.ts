import type { z } from 'zod';
import { CrawlRunParams, DeepCrawlRunParams } from './crawl.js';
import { ExtractRunParams } from './extract.js';
import type { RunType } from './run.js';

/**
 * The params a run keeps of its creating request (`Run.params`), one schema
 * per run type: the body less `type` and `urls`, with the defaults applied.
 * A server reads stored params back through these, so a run's params are
 * typed from the route to the code that processes its pages.
 *
 * @example
 * ```ts
 * RUN_PARAMS['deep-crawl'].parse({ url: 'https://docs.example/' }).max_depth; // 3
 * ```
 */
export const RUN_PARAMS = {
  extract: ExtractRunParams,
  crawl: CrawlRunParams,
  'deep-crawl': DeepCrawlRunParams,
} as const satisfies Record<RunType, z.ZodType>;

/** The params of a run of type `T` (of any type by default). */
export type RunParams<T extends RunType = RunType> = z.output<(typeof RUN_PARAMS)[T]>;

/** A run type with its params: narrowing on `type` narrows `params`. */
export type TypedRunParams = { [T in RunType]: { type: T; params: RunParams<T> } }[RunType];
