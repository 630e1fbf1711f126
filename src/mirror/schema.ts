/**
 * Tables every dataset file carries besides its own: `sync_log` (one row per successful sync, history
 * kept across syncs) and `rejects` (rows of the last sync that did not parse).
 */
export const SYNC_LOG_DDL = `CREATE TABLE IF NOT EXISTS sync_log (
  dataset       VARCHAR NOT NULL,
  source_url    VARCHAR,      -- upstream file URL (or local path given with --from); several joined by a space
  published     DATE,         -- upstream publication date, when the publisher states it
  sha256        VARCHAR,      -- checksum of the downloaded file(s), computed while streaming
  bytes         BIGINT,
  rows_loaded   BIGINT NOT NULL,
  rows_rejected BIGINT NOT NULL,
  rows_total    BIGINT,       -- rows in the main table(s) after the sync
  duration_ms   BIGINT NOT NULL,
  mode          VARCHAR NOT NULL, -- 'full' | 'incremental'
  as_of         DATE,         -- the data's as-of date (meta.as_of)
  synced_at     TIMESTAMP NOT NULL,
  files         VARCHAR,      -- JSON array: [{url, name, sha256, bytes, published, kind}]
  tool_version  VARCHAR
)`;

export const REJECTS_DDL = `CREATE TABLE IF NOT EXISTS rejects (
  file   VARCHAR,
  line   BIGINT,   -- 1-based line in the file when known
  raw    VARCHAR,  -- the line as read (reconstructed from its fields for type errors)
  reason VARCHAR
)`;
