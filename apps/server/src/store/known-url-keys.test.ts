import { describe, expect, it } from 'vitest';
import { KnownUrlKeys } from './known-url-keys.js';

const at = (depth: number, keys: string[]) => keys.map((key) => ({ key, depth }));

describe('KnownUrlKeys', () => {
  it('holds keys by run, and forgets a run', () => {
    const known = new KnownUrlKeys();
    known.add('run_a', at(1, ['k1', 'k2', 'k1']));
    known.add('run_b', at(1, ['k3']));
    expect(known.has('run_a', 'k1', 1)).toBe(true);
    expect(known.has('run_a', 'k3', 1)).toBe(false);
    expect(known.has('run_b', 'k3', 1)).toBe(true);
    known.forget('run_a');
    expect(known.has('run_a', 'k1', 1)).toBe(false);
    expect(known.has('run_b', 'k3', 1)).toBe(true);
  });

  it('knows a key only at its depth or deeper, and keeps the shallowest', () => {
    const known = new KnownUrlKeys();
    known.add('run_a', at(3, ['k']));
    expect(known.has('run_a', 'k', 4)).toBe(true);
    expect(known.has('run_a', 'k', 3)).toBe(true);
    // Found by a shorter path: the store must look (a waiting item moves to it).
    expect(known.has('run_a', 'k', 2)).toBe(false);
    known.add('run_a', at(2, ['k']));
    known.add('run_a', at(5, ['k']));
    expect(known.has('run_a', 'k', 2)).toBe(true);
    expect(known.has('run_a', 'k', 1)).toBe(false);
  });

  it('gives its memory back past its bound, keeping the keys being added', () => {
    const known = new KnownUrlKeys();
    known.add('run_a', at(1, ['first']));
    const many = Array.from({ length: 199_999 }, (_, i) => `k${i}`);
    known.add('run_a', at(1, many));
    expect(known.has('run_a', 'first', 1)).toBe(true);
    known.add('run_b', at(1, ['last']));
    expect(known.has('run_a', 'first', 1)).toBe(false);
    expect(known.has('run_b', 'last', 1)).toBe(true);
  });
});
