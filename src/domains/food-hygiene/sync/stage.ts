/**
 * Staging one authority's file: a streaming parse (parse.ts), each establishment normalised
 * (normalise.ts) and appended to a staging CSV. Used on the main thread and in the parse workers
 * (stage-worker.ts, one staging CSV each): nothing here touches the network or DuckDB.
 */
import { closeSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { csvOfEstablishment, type CsvExtras } from './normalise.js';
import { MalformedFileError, own, parseAuthorityFile, type FileHeader } from './parse.js';

/** One authority's file to load. */
export interface PlannedFile {
  code: string;
  name: string | null;
  region: string | null;
  scheme: string | null;
  url: string;
  fileName: string;
  /** LastPublishedDate from the authorities list (null for `--from` files). */
  lastPublished: string | null;
  /** EstablishmentCount from the authorities list. */
  listedCount: number | null;
  /** Set for a local `--from` file (read in place). */
  localPath?: string;
}

export interface FileSuccess {
  ok: true;
  plan: PlannedFile;
  header: FileHeader;
  rows: number;
  /** Establishments rejected (all of them counted; the first ROW_REJECTS_KEPT kept for `rejects`). */
  rowRejectCount: number;
  rowRejects: Array<{ index: number; raw: string; reason: string }>;
  unknownRatings: Map<string, number>;
  /** Name and scheme read from the file (the first establishment), for `--from` files. */
  fileName: string | null;
  fileScheme: string | null;
  sha256: string;
  bytes: number;
}

export interface FileFailure {
  ok: false;
  plan: PlannedFile;
  reason: string;
  line: number | null;
  /** Establishments counted as rejected: the list's count, else those read before the fault plus one. */
  weight: number;
}

export type FileResult = FileSuccess | FileFailure;

/** Rejected establishments of one file kept (for the `rejects` table); the rest are counted only. */
export const ROW_REJECTS_KEPT = 1000;

/**
 * A staging CSV written by one parse at a time; a failed file is cut back out with ftruncate. Lines are
 * encoded straight into one 1 MiB buffer (joining a megabyte of line strings, then encoding the joined
 * string, was 8% of a 400-file sync's main thread, and its garbage more GC).
 */
export class Staging {
  private readonly fd: number;
  private pos = 0;
  private readonly buf = Buffer.allocUnsafe(1 << 20);
  private used = 0;
  constructor(readonly path: string) {
    this.fd = openSync(path, 'w');
  }
  /** The byte offset after everything added so far (flushes first). */
  get offset(): number {
    this.flush();
    return this.pos;
  }
  add(line: string): void {
    // at most 3 bytes of UTF-8 per UTF-16 unit
    if (this.used + line.length * 3 > this.buf.length) {
      this.flush();
      if (line.length * 3 > this.buf.length) {
        // a line larger than the buffer: written whole (writeSync may write less than asked)
        const b = Buffer.from(line, 'utf8');
        for (let done = 0; done < b.length; ) done += writeSync(this.fd, b, done, b.length - done, this.pos + done);
        this.pos += b.length;
        return;
      }
    }
    this.used += this.buf.write(line, this.used, 'utf8');
  }
  flush(): void {
    let done = 0;
    while (done < this.used) done += writeSync(this.fd, this.buf, done, this.used - done, this.pos + done);
    this.pos += this.used;
    this.used = 0;
  }
  cutTo(offset: number): void {
    this.used = 0;
    ftruncateSync(this.fd, offset);
    this.pos = offset;
  }
  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/** Parse one downloaded file into the staging CSV; on a fault nothing of it stays staged. */
export async function stageFile(staging: Staging, plan: PlannedFile, path: string, sha256: string, bytes: number): Promise<FileResult> {
  const start = staging.offset;
  const rowRejects: FileSuccess['rowRejects'] = [];
  const unknownRatings = new Map<string, number>();
  const extras: CsvExtras = { unknownRating: undefined };
  let rows = 0;
  let rowRejectCount = 0;
  let fileName: string | null = null;
  let fileScheme: string | null = null;
  try {
    const { header } = await parseAuthorityFile(path, (e, index) => {
      // every text kept past this callback is copied (own): the parser's slices hold their whole chunk
      if (index === 0) {
        fileName = e.LocalAuthorityName?.trim() ? own(e.LocalAuthorityName.trim()) : null;
        fileScheme = e.SchemeType?.trim() ? own(e.SchemeType.trim().toLowerCase()) : null;
      }
      const line = csvOfEstablishment(e, plan.code, extras);
      if (typeof line !== 'string') {
        if (rowRejectCount++ < ROW_REJECTS_KEPT) rowRejects.push({ index, raw: own(JSON.stringify(e).slice(0, 2000)), reason: own(line.reject) });
        return;
      }
      const unknown = extras.unknownRating;
      if (unknown) {
        const had = unknownRatings.get(unknown);
        if (had === undefined) unknownRatings.set(own(unknown), 1);
        else unknownRatings.set(unknown, had + 1);
      }
      staging.add(line);
      rows++;
    });
    staging.flush();
    return { ok: true, plan, header, rows, rowRejectCount, rowRejects, unknownRatings, fileName, fileScheme, sha256, bytes };
  } catch (e) {
    staging.cutTo(start);
    if (!(e instanceof MalformedFileError)) throw e;
    return {
      ok: false, plan, line: e.line,
      reason: `malformed XML at line ${e.line}, column ${e.column}: ${e.message}`,
      weight: plan.listedCount ?? e.establishmentsRead + 1,
    };
  }
}

