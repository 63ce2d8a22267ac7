import { describe, expect, it } from 'vitest';
import { KnownUrlKeys } from './known-url-keys.js';

describe('KnownUrlKeys', () => {
  it('holds keys by run, and forgets a run', () => {
    const known = new KnownUrlKeys();
    known.add('run_a', ['k1', 'k2', 'k1']);
    known.add('run_b', ['k3']);
    expect(known.has('run_a', 'k1')).toBe(true);
    expect(known.has('run_a', 'k3')).toBe(false);
    expect(known.has('run_b', 'k3')).toBe(true);
    known.forget('run_a');
    expect(known.has('run_a', 'k1')).toBe(false);
    expect(known.has('run_b', 'k3')).toBe(true);
  });

  it('gives its memory back past its bound, keeping the keys being added', () => {
    const known = new KnownUrlKeys();
    known.add('run_a', ['first']);
    const many = Array.from({ length: 199_999 }, (_, i) => `k${i}`);
    known.add('run_a', many);
    expect(known.has('run_a', 'first')).toBe(true);
    known.add('run_b', ['last']);
    expect(known.has('run_a', 'first')).toBe(false);
    expect(known.has('run_b', 'last')).toBe(true);
  });
});
