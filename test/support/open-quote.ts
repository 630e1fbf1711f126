/**
 * What the open-quote tests share (sync/open-quote.ts: a quote left open in a CSV read leniently, DuckDB
 * taking the lines after it in as one field, is refused by name): a copy of a real fixture written in a
 * folder of its own, a line with one quote removed, the row count the previous data still answers, and the
 * check on the one line a refused sync prints.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runCli, type RunResult } from './cli.js';

/** A writer of files, each in a new folder under a temp folder named after `prefix`. */
export function fileWriter(prefix: string): (name: string, text: string) => string {
  const root = mkdtempSync(join(tmpdir(), `pd-${prefix}-`));
  let n = 0;
  return (name, text) => {
    const dir = join(root, `src-${++n}`);
    mkdirSync(dir);
    writeFileSync(join(dir, name), text, 'utf8');
    return join(dir, name);
  };
}

/**
 * `lines` (each with its line end) joined, line `i` (0-based) with the closing quote of its field `k`
 * (1-based) removed, in a file whose every field is quoted (`"a","b",…`): field k ends `…,` (or the line
 * ends) with no quote to close it.
 */
export function openAt(lines: readonly string[], i: number, k: number): string {
  const out = [...lines];
  const fields = out[i]!.replace(/\r?\n$/, '').split('","');
  out[i] = k === fields.length ? `${fields.join('","').replace(/"$/, '')}\n` : `${fields.slice(0, k).join('","')},"${fields.slice(k).join('","')}\n`;
  return out.join('');
}

/** The integer `n` of `SELECT … AS n` through the CLI's `sql` command. */
export async function countOf(env: Record<string, string | undefined>, sql: string): Promise<number> {
  const r = await runCli(['sql', sql, '--format', 'json'], { env });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { data: Array<{ n: number }> }).data[0]!.n;
}

/**
 * A sync refused for a quote left open: exit 1, stderr the one line naming `name` as not a well-formed
 * `what`, the lines taken in and why, ending "kept the previous data". Returns the lines taken in.
 */
export function expectOpenQuoteRefused(r: RunResult, dataset: string, name: string, what: string, why: string): number {
  expect(r.code, r.stderr).toBe(1);
  const out = r.stderr.trimEnd().split('\n');
  expect(out, r.stderr).toHaveLength(1);
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(
    `^${esc(dataset)}: sync failed: ${esc(dataset)}: load failed: ${esc(name)} is not a well-formed ${esc(what)}: ` +
      `a quoted field that is never closed takes in (\\d+) lines as one field \\(${esc(why)}\\); ` +
      `download it again \\(or check it is the publisher's file, whole and unedited\\) and run the sync again; kept the previous data$`,
  ).exec(out[0]!);
  expect(m, out[0]).not.toBeNull();
  return Number(m![1]);
}

/** The lines (each with its line end) of `text`'s header then `copies` copies of its rows. */
export function repeated(text: string, copies: number): string[] {
  const [header, ...rows] = text.split(/(?<=\n)/);
  return [header!, ...Array.from({ length: copies }, () => rows).flat()];
}

/**
 * `lines` joined, line `i` (0-based) with a quote opened before its field `k` (1-based) and never closed, in
 * a file whose fields are not quoted (`a,b,…`, fields split on `delim`).
 */
export function openBefore(lines: readonly string[], i: number, k: number, delim = ','): string {
  const out = [...lines];
  const fields = out[i]!.split(delim);
  fields[k - 1] = `"${fields[k - 1]}`;
  out[i] = fields.join(delim);
  return out.join('');
}

/** One dataset's open-quote case: how its sync of a file's text runs, how many rows it answers, its refusal. */
export interface OpenQuoteCase {
  dataset: string;
  /** The file's name, in the refusal. */
  name: string;
  what: string;
  why: string;
  sync: (text: string) => Promise<RunResult>;
  count: () => Promise<number>;
}

/** The sync of `text` refused for a quote left open (expectOpenQuoteRefused), `kept` rows still answering: the lines taken in. */
export async function refusedKeeping(c: OpenQuoteCase, text: string, kept: number): Promise<number> {
  const lines = expectOpenQuoteRefused(await c.sync(text), c.dataset, c.name, c.what, c.why);
  expect(await c.count()).toBe(kept);
  return lines;
}

/** The sync of `text` succeeds (the previous data of the refused syncs after it), `n` rows answering. */
export async function syncedAnswering(c: OpenQuoteCase, text: string, n: number): Promise<void> {
  const r = await c.sync(text);
  expect(r.code, r.stderr).toBe(0);
  expect(await c.count()).toBe(n);
}

/**
 * A file's `lines` synced whole (`rows` answering), then, for each `[i, k]` of `opens`, with a quote opened
 * before field `k` of line `i` (openBefore): refused, `taken` lines taken in, the `rows` still answering.
 */
export async function expectOpenedRefused(c: OpenQuoteCase, lines: readonly string[], rows: number, opens: ReadonlyArray<readonly [number, number]>, taken: number): Promise<void> {
  await syncedAnswering(c, lines.join(''), rows);
  for (const [i, k] of opens) expect(await refusedKeeping(c, openBefore(lines, i, k), rows), `line ${i + 1}, field ${k}`).toBe(taken);
}
