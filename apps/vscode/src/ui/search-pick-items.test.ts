import { AuthenticationError, ConnectionError, RateLimitError } from '@webdata/core';
import { describe, expect, it } from 'vitest';
import { collectionPickItems, noHitsItem, searchFailedItem } from './search-pick-items.js';

describe('collectionPickItems', () => {
  const collections = [
    { name: 'default', document_count: 1 },
    { name: 'git', document_count: 199 },
    { name: 'new', document_count: null },
  ];

  it('count documents in words ("1 document", not "1 documents")', () => {
    expect(collectionPickItems(collections, undefined)).toEqual([
      { label: 'default', description: '1 document' },
      { label: 'git', description: '199 documents' },
      { label: 'new', description: undefined },
    ]);
  });

  it('put the collection searched last first, so searching again and pressing Enter searches it again', () => {
    expect(collectionPickItems(collections, 'git').map((item) => [item.label, item.description])).toEqual([
      ['git', '199 documents · searched last'],
      ['default', '1 document'],
      ['new', undefined],
    ]);
    // One no longer listed changes nothing.
    expect(collectionPickItems(collections, 'gone')[0]?.label).toBe('default');
  });
});

describe('noHitsItem', () => {
  it('names the collection and the query', () => {
    expect(noHitsItem('zzzqqq', 'git')).toEqual({
      label: "No page of “git” matches 'zzzqqq'",
      alwaysShow: true,
    });
    expect(noHitsItem('"no such phrase" -rebase', 'git').label).toBe(
      `No page of “git” matches '"no such phrase" -rebase'`,
    );
  });

  it('says a query of words to leave out only needs a word to search for', () => {
    for (const query of ['-rebase', '-rebase -"interactive mode"']) {
      expect(noHitsItem(query, 'git')).toMatchObject({
        label: `Nothing to search for in '${query}'`,
        detail: 'Words after - are left out of the hits: add a word to search for.',
      });
    }
  });
});

describe('searchFailedItem', () => {
  const base = 'http://127.0.0.1:8787';

  it('says no service answers (the server went away mid-search) in the words of the Runs view, and what to do', () => {
    expect(searchFailedItem(new ConnectionError('POST /search failed: ECONNREFUSED'), base)).toEqual({
      label: `$(error) No Web Data service answers at ${base}`,
      detail: 'Enter searches again.',
      alwaysShow: true,
    });
  });

  it('counts the failed searches in a row from the second on, so Enter on the line shows it tried', () => {
    const gone = new ConnectionError('POST /search failed: ECONNREFUSED');
    expect(searchFailedItem(gone, base, 1)?.detail).toBe('Enter searches again.');
    expect(searchFailedItem(gone, base, 3)?.detail).toBe('3 tries, the last just now. Enter searches again.');
    expect(searchFailedItem(new Error('query too long'), base, 3)).toBeUndefined();
  });

  it('says the key was refused, or to wait, and leaves other errors to be shown as the service said them', () => {
    const refused = new AuthenticationError({ status: 401, code: 'unauthorized', message: 'no' });
    expect(searchFailedItem(refused, base)?.label).toBe(
      `$(error) The Web Data service at ${base} refused the API key`,
    );
    const limited = new RateLimitError({
      status: 429,
      code: 'rate_limited',
      message: 'wait',
      retryAfterMs: 1,
    });
    expect(searchFailedItem(limited, base)?.label).toBe(
      `$(error) The Web Data service at ${base} asks to wait`,
    );
    expect(searchFailedItem(new Error('query too long'), base)).toBeUndefined();
  });
});
