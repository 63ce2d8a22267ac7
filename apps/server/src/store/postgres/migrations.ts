import type pg from 'pg';
import { OPENING_CHARACTERS, summaryOf } from '../../search/rerank.js';
import type { PostgresMigration } from './migrate.js';
import { smallFieldsTsvectorSql } from './search-small-fields.js';

/**
 * The PostgreSQL schema, as numbered migrations (applied by
 * `migratePostgres`, each once, in order). Never edit a migration that has
 * shipped: add the next one.
 *
 * Result contents and screenshots are not here: they are blobs (see
 * `../blobs/`), written before the transaction that records the result.
 */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  `
  CREATE TABLE api_keys (
    id text PRIMARY KEY,
    owner text NOT NULL,
    name text NOT NULL,
    secret_hash text NOT NULL,
    created_at timestamptz NOT NULL,
    revoked_at timestamptz
  );

  CREATE TABLE runs (
    seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    id text PRIMARY KEY,
    owner text NOT NULL,
    type text NOT NULL,
    status text NOT NULL,
    urls jsonb NOT NULL,
    params jsonb NOT NULL,
    error jsonb,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    started_at timestamptz,
    finished_at timestamptz,
    version bigint NOT NULL DEFAULT 1,
    idempotency_key text,
    item_count integer NOT NULL DEFAULT 0,
    change_seq bigint NOT NULL DEFAULT 0
  );
  CREATE INDEX runs_owner ON runs (owner, seq);
  CREATE UNIQUE INDEX runs_idempotency ON runs (owner, idempotency_key) WHERE idempotency_key IS NOT NULL;
  -- Claims share work out between active runs: finding those must not scan finished ones.
  CREATE INDEX runs_active ON runs (seq) WHERE status IN ('queued', 'running');

  -- Every creation and version of a run takes the next number of one store-wide counter (the batched
  -- long poll reads "changed since N" in one indexed read). A row, not a SEQUENCE: numbers are taken
  -- under its lock until commit, so they become visible in order and a reader's position misses nothing.
  -- Writers take it last in their transaction (see PostgresStore), so it never joins a deadlock.
  CREATE TABLE run_change_counter (id integer PRIMARY KEY CHECK (id = 1), last bigint NOT NULL);
  INSERT INTO run_change_counter VALUES (1, 0);
  CREATE INDEX runs_owner_change ON runs (owner, change_seq);
  CREATE FUNCTION runs_take_change_seq() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE run_change_counter SET last = last + 1 WHERE id = 1 RETURNING last INTO NEW.change_seq;
    RETURN NEW;
  END $$;
  CREATE TRIGGER runs_change_seq BEFORE INSERT OR UPDATE OF version ON runs
    FOR EACH ROW EXECUTE FUNCTION runs_take_change_seq();

  CREATE TABLE items (
    seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    id text PRIMARY KEY,
    run_id text NOT NULL,
    url text NOT NULL,
    url_key text NOT NULL,
    depth integer NOT NULL,
    parent_url text,
    status text NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    lease_owner text,
    lease_token text,
    lease_until timestamptz,
    updated_at timestamptz NOT NULL,
    UNIQUE (run_id, url_key)
  );
  -- The queue: each run's oldest queued items; and the reaper's expired leases.
  CREATE INDEX items_queued ON items (run_id, seq) WHERE status = 'queued';
  CREATE INDEX items_leased ON items (lease_until) WHERE status = 'running';
  CREATE INDEX items_run_status ON items (run_id, status);

  CREATE TABLE results (
    seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    id text PRIMARY KEY,
    run_id text NOT NULL,
    item_id text NOT NULL UNIQUE,
    url text NOT NULL,
    final_url text,
    status text NOT NULL,
    title text,
    depth integer NOT NULL,
    parent_url text,
    http_status integer,
    content_type text,
    data jsonb,
    has_screenshot boolean NOT NULL,
    screenshot_error jsonb,
    error jsonb,
    -- Which content formats have a blob (so a missing one answers 404 without asking the blob store).
    formats text[] NOT NULL,
    created_at timestamptz NOT NULL
  );
  CREATE INDEX results_run ON results (run_id, seq);

  -- Other URLs a fetched page is known by in its run (redirect target, rel=canonical).
  CREATE TABLE url_aliases (
    run_id text NOT NULL,
    url_key text NOT NULL,
    PRIMARY KEY (run_id, url_key)
  );

  -- Collection search: one document per (owner, collection, url), its weighted tsvector
  -- (title A, headings B, body D) and length; which runs indexed it; and, kept at indexing
  -- time, each collection's document count, total length and term document frequencies (BM25).
  CREATE TABLE search_documents (
    seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    id text PRIMARY KEY,
    owner text NOT NULL,
    collection text NOT NULL,
    url text NOT NULL,
    site text NOT NULL,
    title text,
    headings text NOT NULL,
    body text NOT NULL,
    indexed_at timestamptz NOT NULL,
    tsv tsvector NOT NULL,
    length integer NOT NULL,
    UNIQUE (owner, collection, url)
  );
  CREATE INDEX search_documents_tsv ON search_documents USING gin (tsv);
  CREATE TABLE search_document_runs (
    document_id text NOT NULL REFERENCES search_documents (id) ON DELETE CASCADE,
    run_id text NOT NULL,
    PRIMARY KEY (document_id, run_id)
  );
  CREATE INDEX search_document_runs_by_run ON search_document_runs (run_id);
  CREATE TABLE search_collection_stats (
    owner text NOT NULL,
    collection text NOT NULL,
    documents integer NOT NULL,
    total_length bigint NOT NULL,
    PRIMARY KEY (owner, collection)
  );
  CREATE TABLE search_terms (
    owner text NOT NULL,
    collection text NOT NULL,
    term text NOT NULL,
    documents integer NOT NULL,
    PRIMARY KEY (owner, collection, term)
  );
  `,
  `
  -- Term document frequencies as rows added (+n) and taken away (-n) instead of counters updated in
  -- place: pages of one collection indexed by many workers at once never wait on a shared row (the
  -- counters serialised every result write of a collection). A term's frequency is the sum of its rows;
  -- rows are folded together from time to time. A collection's document count and total length are
  -- read from its documents when it is searched.
  CREATE TABLE search_term_counts (
    owner text NOT NULL,
    collection text NOT NULL,
    term text NOT NULL,
    documents integer NOT NULL
  );
  CREATE INDEX search_term_counts_term ON search_term_counts (owner, collection, term) INCLUDE (documents);
  INSERT INTO search_term_counts SELECT owner, collection, term, documents FROM search_terms WHERE documents <> 0;
  DROP TABLE search_terms;
  DROP TABLE search_collection_stats;
  CREATE INDEX search_documents_collection ON search_documents (owner, collection) INCLUDE (length);

  -- A run's creation takes its change number with its last statement (setting its version), like
  -- every other change, rather than when its row is inserted: the counter is held only until commit.
  DROP TRIGGER runs_change_seq ON runs;
  CREATE TRIGGER runs_change_seq BEFORE UPDATE OF version ON runs
    FOR EACH ROW EXECUTE FUNCTION runs_take_change_seq();
  `,
  `
  -- A deleted run leaves a tombstone holding the next change number, so a change feed over all of a
  -- key's runs (no ids to check) tells its watchers the run is gone. Kept a day (pruned by deletions):
  -- a feed resumed from an older position may miss a deletion, never a run's change. Deleting the run
  -- row is the last write of a deletion, so the counter is still taken last in its transaction.
  CREATE TABLE run_deletions (
    owner text NOT NULL,
    run_id text NOT NULL,
    change_seq bigint NOT NULL,
    deleted_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX run_deletions_owner_change ON run_deletions (owner, change_seq);
  CREATE FUNCTION runs_record_deletion() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE
    taken bigint;
  BEGIN
    DELETE FROM run_deletions WHERE deleted_at < now() - interval '1 day';
    UPDATE run_change_counter SET last = last + 1 WHERE id = 1 RETURNING last INTO taken;
    INSERT INTO run_deletions (owner, run_id, change_seq) VALUES (OLD.owner, OLD.id, taken);
    RETURN OLD;
  END $$;
  CREATE TRIGGER runs_deletion AFTER DELETE ON runs FOR EACH ROW EXECUTE FUNCTION runs_record_deletion();
  `,
  `
  -- A run's item count is read from its items (as its stats are), not kept in a second copy that
  -- every insertion and alias drop had to adjust by hand.
  ALTER TABLE runs DROP COLUMN item_count;
  `,
  `
  -- Embedded chunks of a document (semantic search, when an embeddings endpoint is configured):
  -- little-endian float32 vectors, written in the transaction that indexes the document.
  CREATE TABLE search_chunks (
    document_id text NOT NULL REFERENCES search_documents (id) ON DELETE CASCADE,
    n integer NOT NULL,
    text text NOT NULL,
    vector bytea NOT NULL,
    PRIMARY KEY (document_id, n)
  );
  `,
  addSearchSmallFields,
  `
  -- Each body's word index (search/word-index.ts), written with the body by the indexer: a search
  -- reads it instead of the body to find the query's words. Stored as is (the search reads it
  -- whole, uncompressed). A body changed without a new index loses its old one (the trigger), so an
  -- index never outlives its body; a row without one (indexed before it) is read and scanned.
  ALTER TABLE search_documents ADD COLUMN words bytea;
  ALTER TABLE search_documents ALTER COLUMN words SET STORAGE EXTERNAL;
  CREATE FUNCTION search_documents_body_words() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NEW.body IS DISTINCT FROM OLD.body AND NEW.words IS NOT DISTINCT FROM OLD.words THEN
      NEW.words := NULL;
    END IF;
    RETURN NEW;
  END
  $$;
  CREATE TRIGGER search_documents_body_words BEFORE UPDATE OF body ON search_documents
    FOR EACH ROW EXECUTE FUNCTION search_documents_body_words();
  `,
  `
  -- How many times work on an item started (its first request went out) without ending, and under
  -- which lease the last start was: a page whose process dies while it works on it fails after
  -- MAX_PAGE_STARTS (store/crashed-outcome.ts) instead of being claimed again without end. Claims are
  -- not starts (a page waiting for its host's turn), and a lease given back undoes its start.
  -- Items of an older database start from none.
  ALTER TABLE items ADD COLUMN starts integer NOT NULL DEFAULT 0;
  ALTER TABLE items ADD COLUMN started_lease text;
  `,
];

/**
 * Collection search's small fields: each document's summary (`summaryOf` its body's opening,
 * computed here for the documents indexed before it) and a tsvector over title (A), headings (B)
 * and summary (C) with its length and a GIN index, searched on its own for candidates
 * (`PostgresSearchIndex`). Documents are read and written in batches by `seq`.
 */
async function addSearchSmallFields(client: pg.PoolClient): Promise<void> {
  await client.query(`
    ALTER TABLE search_documents
      ADD COLUMN summary text NOT NULL DEFAULT '',
      ADD COLUMN fields_tsv tsvector NOT NULL DEFAULT ''::tsvector,
      ADD COLUMN fields_length integer NOT NULL DEFAULT 0`);
  for (let after = 0; ; ) {
    const { rows } = await client.query<{ seq: string; opening: string }>(
      `SELECT seq, left(body, ${OPENING_CHARACTERS}) AS opening FROM search_documents
       WHERE seq > $1 ORDER BY seq LIMIT 500`,
      [after],
    );
    if (rows.length === 0) break;
    await client.query(
      `UPDATE search_documents d SET summary = u.summary
       FROM unnest($1::bigint[], $2::text[]) AS u(seq, summary) WHERE d.seq = u.seq`,
      [rows.map((row) => row.seq), rows.map((row) => summaryOf(row.opening))],
    );
    after = Number(rows.at(-1)!.seq);
  }
  await client.query(`
    UPDATE search_documents SET fields_tsv = ${smallFieldsTsvectorSql('title', 'headings', 'summary')};
    UPDATE search_documents SET fields_length = length(fields_tsv);
    CREATE INDEX search_documents_fields_tsv ON search_documents USING gin (fields_tsv);
    DROP INDEX search_documents_collection;
    CREATE INDEX search_documents_collection ON search_documents (owner, collection) INCLUDE (length, fields_length);
  `);
}
