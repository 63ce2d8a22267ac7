import { setTimeout as sleep } from 'node:timers/promises';

/**
 * What the word-index backfill reads and writes of a search index (both stores implement it).
 * Documents are named by their `seq` (the row's number, never reused); a document "without words"
 * has no stored word index (indexed before b0b4472, or its body changed by a writer that gave it
 * none, or a body that cannot have one: `buildWordIndex` answered null).
 */
export interface WordBackfillStore {
  /** The highest `seq` of the documents now, or null when there is none. */
  lastDocumentSeq(): Promise<number | null>;
  /** The documents without words among those with `after < seq <= upTo`, in `seq` order. */
  documentsWithoutWords(after: number, upTo: number): Promise<number[]>;
  /**
   * The part of document `seq`'s body its word index is built from (at least its first
   * `ANALYZED_CHARACTERS` characters, or all of it), or null when the document is gone or has
   * words by now.
   */
  analyzedBodyOf(seq: number): Promise<string | null>;
  /**
   * Stores `words` (built from `analyzed`) as document `seq`'s word index, only if the document has
   * none yet and its body still begins with `analyzed` as read (so the index is of its body as it
   * is now: a body changed meanwhile keeps whatever its writer gave it). True when written.
   */
  addWordIndex(seq: number, analyzed: string, words: Uint8Array): Promise<boolean>;
}

/** What one backfill pass did. */
export interface WordBackfillCounts {
  /** Documents without words it read. */
  checked: number;
  /** Of them, those given their word index. */
  indexed: number;
  /** Of them, those whose body can have none (`İ`, a character past the BMP): scanned by searches as before. */
  none: number;
  /** Of them, those changed or indexed by another writer between the read and the write: left as they were. */
  skipped: number;
}

export interface WordBackfillOptions {
  /** Builds a body's word index (`buildWordIndex`), off the main thread (`WordIndexThreads`). */
  build: (analyzed: string) => Promise<Uint8Array | null>;
  /** True while the process has real work (pages being crawled): the backfill waits for it to end. */
  busy?: () => boolean;
  /** How long to wait before looking again while {@link busy}. */
  busyPauseMs?: number;
  /** Documents (by `seq`) looked at by one listing statement. */
  span?: number;
  /** Stops the pass (server shutdown): it resolves with what it did so far. */
  signal?: AbortSignal;
}

/** `seq`s one listing statement covers: a statement stays short on a large index that has every word index. */
const SPAN = 2048;

/**
 * Gives the documents without a word index theirs, once through the index in `seq` order: a
 * database indexed before the word indexes existed would otherwise have its searches read and
 * scan bodies until every page is indexed again. Bounded and gentle: one document at a time (its
 * body's analysed part read, its index built by `build` on another thread, then written if the
 * body is still the one read), a turn of the event loop between documents, and while the
 * process is `busy` it waits. Idempotent and safe beside other writers and processes: a document
 * given an index meanwhile, or whose body changed, is left as it is ({@link WordBackfillStore.addWordIndex}).
 * Documents written after the pass started get their index from the indexer. A document whose
 * body can have no index is looked at again by the next pass (the next start), at the cost of
 * building nothing.
 */
export async function backfillWordIndexes(
  store: WordBackfillStore,
  options: WordBackfillOptions,
): Promise<WordBackfillCounts> {
  const counts: WordBackfillCounts = { checked: 0, indexed: 0, none: 0, skipped: 0 };
  const { build, busy = () => false, busyPauseMs = 1000, span = SPAN, signal } = options;
  const last = await store.lastDocumentSeq();
  if (last === null) return counts;
  const stopped = () => signal?.aborted === true;
  const turn = async () => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (busy() && !stopped()) await sleep(busyPauseMs, undefined, { signal, ref: false }).catch(() => {});
  };
  for (let after = 0; after < last && !stopped(); after += span) {
    await turn();
    if (stopped()) break;
    for (const seq of await store.documentsWithoutWords(after, Math.min(after + span, last))) {
      await turn();
      if (stopped()) break;
      const analyzed = await store.analyzedBodyOf(seq);
      if (analyzed === null) continue;
      counts.checked += 1;
      const words = await build(analyzed);
      if (words === null) counts.none += 1;
      else if (await store.addWordIndex(seq, analyzed, words)) counts.indexed += 1;
      else counts.skipped += 1;
    }
  }
  return counts;
}
