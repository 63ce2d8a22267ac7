import type { IndexedDocument } from './types.js';

/**
 * A collection where a guide answers a question whose words the release notes of many versions
 * repeat more often: shared by the SQLite and PostgreSQL tests of the series demotion
 * (`RerankWeights.series`). Made-up words, so no synonym or stop word is involved.
 */
export interface SeriesCase {
  owner: string;
  collection: string;
  documents: IndexedDocument[];
  query: string;
  /** The page the query asks for. */
  wanted: string;
}

/** Six versions' release notes, each naming the query's words twice, and a guide naming them once. */
export function releaseNotesAndGuide(owner: string, collection: string): SeriesCase {
  const wanted = 'https://d.example/guide/ledger';
  const notes = Array.from({ length: 6 }, (_, i) => ({
    owner,
    collection,
    url: `https://d.example/releases/1.${i}`,
    title: `Harbour 1.${i} release notes`,
    headings: ['Fixes'],
    body: `Fixed in 1.${i}: the ledger lists each cargo once. The ledger export of every cargo is faster.`,
    runId: 'run_1',
  }));
  return {
    owner,
    collection,
    query: 'ledger cargo',
    wanted,
    documents: [
      ...notes,
      {
        owner,
        collection,
        url: wanted,
        title: 'Keeping the books',
        headings: ['Entries'],
        body: 'The ledger records each cargo that comes into the port, with its owner, its weight and its day.',
        runId: 'run_1',
      },
    ],
  };
}
