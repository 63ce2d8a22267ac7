import type { Database } from 'better-sqlite3';

/**
 * The schema, as numbered migrations. Each runs once, in order, inside a
 * transaction; `PRAGMA user_version` records how far a database has come.
 * Never edit a migration that has shipped: add the next one.
 */
export const SQLITE_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    name TEXT NOT NULL,
    secret_hash TEXT NOT NULL,
    created_at TEXT NOT NULL,
    revoked_at TEXT
  );

  CREATE TABLE runs (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    owner TEXT NOT NULL,
    type TEXT NOT NULL,
    status TEXT NOT NULL,
    urls TEXT NOT NULL,
    params TEXT NOT NULL,
    error TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    started_at TEXT,
    finished_at TEXT,
    version INTEGER NOT NULL DEFAULT 1,
    idempotency_key TEXT
  );
  CREATE INDEX runs_owner ON runs (owner, seq);
  CREATE UNIQUE INDEX runs_idempotency ON runs (owner, idempotency_key) WHERE idempotency_key IS NOT NULL;

  CREATE TABLE items (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    run_id TEXT NOT NULL,
    url TEXT NOT NULL,
    url_key TEXT NOT NULL,
    depth INTEGER NOT NULL,
    parent_url TEXT,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    lease_owner TEXT,
    lease_token TEXT,
    lease_until INTEGER,
    updated_at TEXT NOT NULL,
    UNIQUE (run_id, url_key)
  );
  CREATE INDEX items_queue ON items (status, seq);
  CREATE INDEX items_run_status ON items (run_id, status);

  CREATE TABLE results (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    run_id TEXT NOT NULL,
    item_id TEXT NOT NULL UNIQUE,
    url TEXT NOT NULL,
    final_url TEXT,
    status TEXT NOT NULL,
    title TEXT,
    depth INTEGER NOT NULL,
    parent_url TEXT,
    http_status INTEGER,
    content_type TEXT,
    data TEXT,
    has_screenshot INTEGER NOT NULL,
    screenshot_error TEXT,
    error TEXT,
    created_at TEXT NOT NULL
  );
  CREATE INDEX results_run ON results (run_id, seq);

  CREATE TABLE contents (
    result_id TEXT NOT NULL,
    format TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (result_id, format)
  ) WITHOUT ROWID;

  CREATE TABLE screenshots (
    result_id TEXT PRIMARY KEY,
    run_id TEXT NOT NULL,
    png BLOB NOT NULL
  );
  CREATE INDEX screenshots_run ON screenshots (run_id);
  `,
  `
  -- Other URLs a fetched page is known by in its run (where it redirected to, its rel=canonical):
  -- with the items' own keys, the run's seen-set, so each page is fetched once.
  CREATE TABLE url_aliases (
    run_id TEXT NOT NULL,
    url_key TEXT NOT NULL,
    PRIMARY KEY (run_id, url_key)
  ) WITHOUT ROWID;
  `,
  `
  -- How many items a run has: the crawl limit is checked on every discovered link, and
  -- counting the items each time would make a crawl quadratic.
  ALTER TABLE runs ADD COLUMN item_count INTEGER NOT NULL DEFAULT 0;
  UPDATE runs SET item_count = (SELECT count(*) FROM items WHERE items.run_id = runs.id);
  `,
  `
  -- Claims share work out between active runs: find those fast, and each one's oldest queued items.
  CREATE INDEX runs_active ON runs (status, seq);
  CREATE INDEX items_run_queue ON items (run_id, status, seq);
  DROP INDEX items_run_status;
  `,
  `
  -- Every change of a run (its creation, each new version) takes the next number of one store-wide
  -- sequence, so "which of these runs changed since N" (the batched long poll) is one indexed read.
  -- Triggers keep it, so every statement that bumps a run's version is covered.
  CREATE TABLE run_change_counter (id INTEGER PRIMARY KEY CHECK (id = 1), last INTEGER NOT NULL);
  INSERT INTO run_change_counter (id, last) SELECT 1, coalesce(max(seq), 0) FROM runs;
  ALTER TABLE runs ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0;
  UPDATE runs SET change_seq = seq;
  CREATE INDEX runs_owner_change ON runs (owner, change_seq);
  CREATE TRIGGER runs_change_on_insert AFTER INSERT ON runs BEGIN
    UPDATE run_change_counter SET last = last + 1 WHERE id = 1;
    UPDATE runs SET change_seq = (SELECT last FROM run_change_counter WHERE id = 1) WHERE seq = NEW.seq;
  END;
  CREATE TRIGGER runs_change_on_version AFTER UPDATE OF version ON runs BEGIN
    UPDATE run_change_counter SET last = last + 1 WHERE id = 1;
    UPDATE runs SET change_seq = (SELECT last FROM run_change_counter WHERE id = 1) WHERE seq = NEW.seq;
  END;
  `,
  `
  -- A deleted run leaves a tombstone holding the next change number, so a change feed over all of a
  -- key's runs (no ids to check) tells its watchers the run is gone. Kept a day (pruned by deletions):
  -- a feed resumed from an older position may miss a deletion, never a run's change.
  CREATE TABLE run_deletions (
    owner TEXT NOT NULL,
    run_id TEXT NOT NULL,
    change_seq INTEGER NOT NULL,
    deleted_at INTEGER NOT NULL
  );
  CREATE INDEX run_deletions_owner_change ON run_deletions (owner, change_seq);
  CREATE TRIGGER runs_change_on_delete AFTER DELETE ON runs BEGIN
    UPDATE run_change_counter SET last = last + 1 WHERE id = 1;
    DELETE FROM run_deletions WHERE deleted_at < unixepoch() - 86400;
    INSERT INTO run_deletions (owner, run_id, change_seq, deleted_at)
      SELECT OLD.owner, OLD.id, last, unixepoch() FROM run_change_counter WHERE id = 1;
  END;
  `,
  `
  -- A run's item count is read from its items (as its stats are), not kept in a second copy that
  -- every insertion and alias drop had to adjust by hand.
  ALTER TABLE runs DROP COLUMN item_count;
  `,
  `
  -- How many times work on an item started (its first request went out) without ending, and under
  -- which lease the last start was: a page whose process dies while it works on it fails after
  -- MAX_PAGE_STARTS (store/crashed-outcome.ts) instead of being claimed again without end. Claims are
  -- not starts (a pool's reserve, a page waiting for its host's turn), and a lease given back
  -- undoes its start. Items of an older database start from none.
  ALTER TABLE items ADD COLUMN starts INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE items ADD COLUMN started_lease TEXT;
  `,
];

/** Brings `db` to the latest schema (or, for tests of a migration, to the end of `migrations`). */
export function migrate(db: Database, migrations: readonly string[] = SQLITE_MIGRATIONS): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (let version = current; version < migrations.length; version++) {
    db.transaction(() => {
      db.exec(migrations[version]!);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
