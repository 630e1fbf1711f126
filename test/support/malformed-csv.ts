/**
 * What the malformed-file tests share (issue 37: a DuckDB error reading a file is one line; sync/load-error.ts):
 * a copy of a real fixture with one line whose quote is never closed, and the checks on what a failed sync
 * printed: one line, naming the file, none of DuckDB's dump, no JavaScript stack.
 */
import { expect } from 'vitest';
import type { RunResult } from './cli.js';

/** The line inserted: a quoted field that is never closed. */
export const UNTERMINATED = 'x,"unterminated quote,a,b\n';

/** `text` with `UNTERMINATED` after its first `after` lines (header included). */
export function withUnterminatedQuote(text: string, after: number): string {
  const lines = text.split(/(?<=\n)/);
  return [...lines.slice(0, after), UNTERMINATED, ...lines.slice(after)].join('');
}

/** A failed sync's output: exit 1 (README "Exit codes"), stderr one line naming `fileName`, none of DuckDB's dump. */
export function expectOneLineNaming(r: RunResult, dataset: string, fileName: string): string {
  expect(r.code, r.stderr).toBe(1);
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  const line = lines[0]!;
  expect(line).toMatch(new RegExp(`^${dataset}: sync failed: `));
  expect(line).toContain(fileName);
  expect(line).toContain('is not a well-formed CSV of the expected format');
  expect(line).toContain('kept the previous data');
  for (const dump of ['Possible fixes', 'LINE 1', 'sniff', 'Candidates', 'read_csv', 'Invalid Input Error', '    at ']) expect(line).not.toContain(dump);
  // the JSON written to stdout carries the same one line, not the dump
  expect(r.stdout).not.toContain('Possible fixes');
  return line;
}
