/**
 * What `mirror export` writes for a dataset: declared as data next to its DatasetInfo (the `export` field,
 * filled in each domain's datasets.ts), read by the generic exporter in src/mirror/export*.ts. A new domain
 * adds a field, not code. Types only: importing this module costs nothing.
 */

/** A Hive partition column of a lake table: its name in the path and the SQL expression giving its value. */
export interface ExportPartition {
  /** Column name in the path (`year=2024`) and in the DDL (placed after the file columns). */
  column: string;
  /**
   * SQL over the table's rows giving the value, e.g. `CAST(year(date) AS INTEGER)`. When it is a column of
   * the rows under the same name, that column moves from the files into the path (Hive style).
   * Keep it coarse (a year, a month): each value is a directory with its own file(s).
   */
  expr: string;
}

/** One table of the lake: a table, a joined view or a dimension of the dataset file. */
export interface ExportTableSpec {
  /** Lake table name: its directory `<dataset>/<name>/` and its SQL name `<schema>.<name>`. */
  name: string;
  /** One line for the manifest: what a row is. */
  description: string;
  /** The rows, as a SELECT over the dataset file's tables (a join for a view); default `SELECT * FROM <name>`. */
  select?: string;
  /** Hive partition columns (none: one directory of files, split at the target file size). */
  partitionBy?: readonly ExportPartition[];
  /** Columns the rows are ordered by within each partition (the columns queries filter by). */
  sortBy?: readonly string[];
  /**
   * The mirror already stores `select`'s rows in (partition, sortBy) order (the load's ORDER BY): the
   * exporter keeps scan order instead of sorting again (no second sort of 30M rows). Partitioned files are
   * then clustered on sortBy (ascending runs, see docs/export.md); unpartitioned ones exactly sorted.
   */
  stored?: boolean;
}

/** A dataset's export: the tables a reader needs, in the order the manifest lists them. */
export interface DatasetExportSpec {
  tables: readonly ExportTableSpec[];
}
