import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { requiredOnFirstUse } from './required-on-first-use.js';

describe('requiredOnFirstUse', () => {
  it('requires nothing until called, then the package once, picked once', () => {
    let picks = 0;
    const join = requiredOnFirstUse('node:path', (exports) => {
      picks += 1;
      return (exports as typeof path).join;
    });
    expect(picks).toBe(0);
    expect(join()).toBe(path.join);
    expect(join()('a', 'b')).toBe(path.join('a', 'b'));
    expect(picks).toBe(1);
  });

  it('answers a missing package with the require error, at the call', () => {
    const missing = requiredOnFirstUse('webdata-no-such-package');
    expect(() => missing()).toThrow(/Cannot find module 'webdata-no-such-package'/);
  });
});
