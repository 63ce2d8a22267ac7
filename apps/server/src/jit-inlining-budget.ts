import { setFlagsFromString } from 'node:v8';

/** V8's flag: how much bytecode TurboFan may inline into one optimised function (default 920). */
const FLAG = 'max-inlined-bytecode-size-cumulative';

/**
 * The budget the server runs with. Why: a fresh server's crawl spends a third
 * of its CPU in V8's helper threads, most of it TurboFan compiling the
 * converter's and the fetch's code, and a smaller inlining budget makes each
 * compile smaller without making the compiled code measurably slower on real
 * pages. `ab-crawl.ts`, the same build with the flag as B (2026-11-26, under
 * the heavy-job lock): Git manual, 8 rounds, 5.94 → 5.37 ms CPU a page (median,
 * lower in 6 of 8; helper threads 2.25 → 1.72, converter thread 1.81 → 1.81);
 * Python manual, 6 rounds, 10.47 → 9.61 (lower in 5 of 6; helpers 2.28 → 1.67,
 * converter 5.51 → 5.34). See apps/server/BENCHMARKS.md.
 */
export const JIT_INLINING_BUDGET = 300;

/**
 * Sets V8's TurboFan inlining budget to {@link JIT_INLINING_BUDGET} for the
 * whole process (worker threads share V8's flags), unless the process was
 * started with its own value of the flag (`node --max-inlined-…`; Node
 * refuses V8 flags in `NODE_OPTIONS`), which is kept. Called by the `webdata-server` command
 * before the server starts, not by the library: an embedding application
 * decides its own V8 flags.
 *
 * @returns whether the budget was set.
 */
export function limitJitInlining(execArgv: readonly string[] = process.execArgv): boolean {
  const named = (text: string) => text.includes(FLAG) || text.includes(FLAG.replaceAll('-', '_'));
  if (execArgv.some(named)) return false;
  setFlagsFromString(`--${FLAG}=${JIT_INLINING_BUDGET}`);
  return true;
}
