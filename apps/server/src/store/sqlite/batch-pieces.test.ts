import { describe, expect, it } from 'vitest';
import { itemOutcome } from '../item-outcome.test-support.js';
import type { ClaimedItem, CompletedItem } from '../store.js';
import { LargeTextJoiner, type SplitBatch, splitLargeTexts } from './batch-pieces.js';

/** The batch as the receiving thread puts it back together, piece by piece. */
function joinLargeTexts({ batch, texts, pieces }: SplitBatch): CompletedItem[] {
  const joiner = new LargeTextJoiner(batch, texts);
  for (const piece of pieces) {
    expect(joiner.done).toBe(false);
    joiner.add(piece);
  }
  expect(joiner.done).toBe(true);
  return joiner.batch;
}

const item = (n: number) => ({ itemId: `itm_${n}`, url: `https://s.example/${n}` }) as ClaimedItem;

function page(n: number, text: string, markdown: string): CompletedItem {
  return {
    item: item(n),
    outcome: {
      ...itemOutcome('succeeded', { contents: { text, markdown } }),
      document: {
        owner: 'o',
        collection: 'c',
        url: item(n).url,
        title: null,
        headings: [],
        body: text,
        runId: 'run',
      },
    },
  };
}

describe('large texts of a batch sent in pieces', () => {
  it('come back whole and in place; short ones stay in the batch; the batch given is not changed', () => {
    const long = (c: string) => c.repeat(25) + c.toUpperCase();
    const batch = [page(0, long('a'), long('b')), page(1, 'short text', long('c'))];
    const before = structuredClone(batch);
    const split = splitLargeTexts(batch, 10);
    expect(batch).toEqual(before);
    // 26 characters: 3 pieces each, for a's text (its body is the same string: sent once), b and c.
    expect(split.pieces).toHaveLength(9);
    for (const piece of split.pieces) expect(piece.length).toBeLessThanOrEqual(10);
    expect(split.batch[0]!.outcome.document!.body).toBe('');
    expect(split.batch[1]!.outcome.contents.text).toBe('short text');
    expect(joinLargeTexts(structuredClone(split))).toEqual(before);
  });

  it('sends a body that is not the page text on its own', () => {
    const batch = [page(0, 'x'.repeat(30), 'm')];
    batch[0]!.outcome.document!.body = 'y'.repeat(30);
    const split = splitLargeTexts(batch, 10);
    expect(split.pieces.join('')).toBe('x'.repeat(30) + 'y'.repeat(30));
    expect(joinLargeTexts(split)[0]!.outcome.document!.body).toBe('y'.repeat(30));
  });
});
