import { describe, expect, it } from 'vitest';
import type { Result } from '../runs/run-types.js';
import { resultItems, resultPickItems } from './result-pick-items.js';

const page = (title: string, url: string) =>
  ({ id: url, title, url, status: 'succeeded' }) as unknown as Result;
const pages = resultItems([
  page('Oak Reading Chair', 'http://127.0.0.1:9000/product/chair'),
  page('Brass Desk Lamp', 'http://127.0.0.1:9000/product/lamp'),
]);

describe("Go to Result…'s rows", () => {
  it('are the pages alone while some page matches what is typed', () => {
    expect(resultPickItems(pages, '')).toEqual(pages);
    expect(resultPickItems(pages, 'chair')).toEqual(pages);
    expect(resultPickItems(pages, 'product/lamp')).toEqual(pages);
  });

  it('say that no page matches where the quick pick would show an empty list, and the line opens nothing', () => {
    const items = resultPickItems(pages, '  sofa ');
    expect(items.slice(0, 2)).toEqual(pages);
    expect(items[2]).toMatchObject({ label: "No page of this run matches 'sofa'", alwaysShow: true });
    expect(items[2]?.result).toBeUndefined();
    expect(items[2]?.detail).toBe('Its 2 pages are found by part of a title or address.');
  });

  it('say so when the run has no page to open', () => {
    expect(resultPickItems([], 'x')).toEqual([{ label: 'This run has no page to open', alwaysShow: true }]);
  });
});
