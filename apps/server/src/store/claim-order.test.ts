import { describe, expect, it } from 'vitest';
import { claimOrder } from './claim-order.js';

const runs = [
  { id: 'a1', owner: 'a' },
  { id: 'a2', owner: 'a' },
  { id: 'b1', owner: 'b' },
  { id: 'a3', owner: 'a' },
];

const sharesOf = (turns: ReturnType<typeof claimOrder>) =>
  Object.fromEntries(turns.map((turn) => [turn.id, turn.share]));

describe('claimOrder', () => {
  it('lets owners take turns, then each owner its runs, rank by rank', () => {
    expect(claimOrder(runs, 4, 0).map((turn) => turn.id)).toEqual(['a1', 'b1', 'a2', 'a3']);
    expect(claimOrder(runs, 4, 1).map((turn) => turn.id)).toEqual(['b1', 'a2', 'a3', 'a1']);
    expect(claimOrder(runs, 4, 2).map((turn) => turn.id)).toEqual(['a3', 'b1', 'a1', 'a2']);
  });

  it("gives each owner an equal share of the first pass, split between that owner's runs", () => {
    expect(sharesOf(claimOrder(runs, 8, 0))).toEqual({ a1: 2, a2: 2, a3: 2, b1: 4 });
    // One item: the first owner's in the rotation.
    expect(sharesOf(claimOrder(runs, 1, 0))).toEqual({ a1: 1, a2: 1, a3: 1, b1: 0 });
    expect(sharesOf(claimOrder(runs, 1, 1))).toEqual({ a1: 0, a2: 0, a3: 0, b1: 1 });
    expect(claimOrder([], 4, 0)).toEqual([]);
  });

  it('gives the items first to the owners holding the fewest, up to the others’ level', () => {
    // a holds every slot: the freed ones go to b, whatever the rotation, until b holds as many.
    for (const rotation of [0, 1, 2, 3]) {
      const turns = claimOrder(runs, 1, rotation, new Map([['a', 8]]));
      expect(turns[0]!.id).toBe('b1');
      expect(sharesOf(turns)).toEqual({ a1: 0, a2: 0, a3: 0, b1: 1 });
    }
    expect(sharesOf(claimOrder(runs, 4, 0, new Map([['a', 6]])))).toEqual({ a1: 0, a2: 0, a3: 0, b1: 4 });
    // Past the level, the items are shared again.
    expect(sharesOf(claimOrder(runs, 8, 0, new Map([['a', 2]])))).toEqual({ a1: 1, a2: 1, a3: 1, b1: 5 });
    // An owner alone gets them all, however many it holds.
    expect(sharesOf(claimOrder([{ id: 'a1', owner: 'a' }], 3, 0, new Map([['a', 50]])))).toEqual({ a1: 3 });
  });
});
