import type { IndexedDocument } from './types.js';

/**
 * Collections where the page a question wants is found by its small fields (title, headings,
 * summary) and not among the body's best hundred: shared by the SQLite and PostgreSQL tests of
 * the small-field candidates. Made-up words, so no synonym or stop word is involved.
 */
export interface SmallFieldCase {
  owner: string;
  documents: IndexedDocument[];
  query: string;
  /** The page the query asks for. */
  wanted: string;
}

/** More pages than are re-ranked, each holding every word of the query in its body (not in its summary). */
function fillers(owner: string, collection: string): IndexedDocument[] {
  return Array.from({ length: 110 }, (_, i) => ({
    owner,
    collection,
    url: `https://d.example/notes/${i}`,
    title: `Notes ${i}`,
    headings: [],
    body: `This page is one of many notes kept here for page ${i}.\n\nLater the harbour ledger lists cargo, and the ledger of page ${i} again.`,
    runId: 'run_1',
  }));
}

/**
 * Over a hundred pages hold all three words; the wanted one says in its summary what it does
 * with two of them and lacks the third: only a candidate query over the small fields reaches it.
 */
export function pageLackingAWord(owner: string, collection: string): SmallFieldCase {
  const wanted = 'https://d.example/tally';
  return {
    owner,
    query: 'harbour ledger cargo',
    wanted,
    documents: [
      ...fillers(owner, collection),
      {
        owner,
        collection,
        url: wanted,
        title: 'tally(1)',
        headings: [],
        body: 'SYNOPSIS\n\ntally [--by-port] [--since=<date>]\n\nDESCRIPTION\n\nTallies the cargo of each harbour in one table, port by port.',
        runId: 'run_1',
      },
    ],
  };
}

/**
 * The wanted page holds every word, and its summary is about them, but its body is long: its
 * body's score puts it under the hundred short pages; its small fields' score does not.
 */
export function longPage(owner: string, collection: string): SmallFieldCase {
  const wanted = 'https://d.example/ledger';
  const padding = Array.from(
    { length: 400 },
    (_, i) => `Section ${i} describes the weather, the tides and the ships of the season.`,
  ).join('\n\n');
  return {
    owner,
    query: 'harbour ledger cargo',
    wanted,
    documents: [
      ...fillers(owner, collection),
      {
        owner,
        collection,
        url: wanted,
        title: 'ledger(1)',
        headings: [],
        body: `Keeps the harbour ledger of every cargo that comes in.\n\n${padding}`,
        runId: 'run_1',
      },
    ],
  };
}
