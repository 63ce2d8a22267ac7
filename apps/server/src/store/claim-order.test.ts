import { describe, expect, it } from 'vitest';
import { claimOrder } from './claim-order.js';

const runs = [
  { id: 'a1', owner: 'a' },
  { id: 'a2', owner: 'a' },
  { id: 'b1', owner: 'b' },
  { id: 'a3', owner: 'a' },
];

describe('claimOrder', () => {
  it('lets owners take turns, then each owner its runs, rank by rank', () => {
    expect(claimOrder(runs, 4, 0).map((turn) => turn.id)).toEqual(['a1', 'b1', 'a2', 'a3']);
    expect(claimOrder(runs, 4, 1).map((turn) => turn.id)).toEqual(['b1', 'a2', 'a3', 'a1']);
    expect(claimOrder(runs, 4, 2).map((turn) => turn.id)).toEqual(['a3', 'b1', 'a1', 'a2']);
  });

  it("gives each owner an equal share of the first pass, split between that owner's runs", () => {
    const shares = Object.fromEntries(claimOrder(runs, 8, 0).map((turn) => [turn.id, turn.share]));
    expect(shares).toEqual({ a1: 2, a2: 2, a3: 2, b1: 4 });
    expect(claimOrder(runs, 1, 0).every((turn) => turn.share === 1)).toBe(true);
    expect(claimOrder([], 4, 0)).toEqual([]);
  });
});
