import { describe, expect, it } from 'vitest';
import { limitJitInlining } from './jit-inlining-budget.js';

describe('limitJitInlining', () => {
  it('sets the budget when the process was not started with one', () => {
    expect(limitJitInlining(['--enable-source-maps', '--max-old-space-size=512'])).toBe(true);
  });

  it("keeps the operator's own value from the command line, in either spelling", () => {
    expect(limitJitInlining(['--max-inlined-bytecode-size-cumulative=920'])).toBe(false);
    expect(limitJitInlining(['--max_inlined_bytecode_size_cumulative=500'])).toBe(false);
  });
});
