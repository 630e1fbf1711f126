/**
 * A two-column statement for a terminal (label, right-aligned amount, dim note), as `tax take-home` and
 * `energy bill` print: presentation primitives a domain's renderer uses (no data, no registry). Given the
 * terminal's width, a note too long for its line wraps at word boundaries (`wrapWords`) under itself, or
 * under the row when too little room is left beside the amounts; so do `prose` lines (a title, a footer).
 */
import { wrapWords } from './wrap.js';

/** Wrap in an ANSI style when colour is on. */
export const ansi = (code: string, on: boolean) => (s: string): string => (on ? `\u001b[${code}m${s}\u001b[0m` : s);

/** Length as displayed (without ANSI colour codes). */
export const visible = (s: string): number => s.replace(/\u001b\[[0-9;]*m/g, '').length;

/** £12,345.67 (display only: the amount is already exact pounds). */
export function money(n: number): string {
  const [int, dec] = Math.abs(n).toFixed(2).split('.');
  return `${n < 0 ? '-' : ''}£${int!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${dec}`;
}

/** Narrowest a note is wrapped to beside the amounts; with less room it goes under its row. */
const NOTE_MIN = 20;
/** Indent of a note printed under its row. */
const NOTE_UNDER = '    ';

/**
 * Prose to `columns` (0: as it is): wrapped at word boundaries, every line after the first indented by
 * `indent`, each line styled by `style` (so colour codes never span a line break).
 */
export function prose(text: string, columns: number, style: (s: string) => string = (s) => s, indent = ''): string {
  const lines = columns > 0 && visible(text) > columns ? wrapWords(text, columns, indent).split('\n') : [text];
  return lines.map((l, i) => (i === 0 ? style(l) : `${indent}${style(l.slice(indent.length))}`)).join('\n');
}

/**
 * Rows `[label, amount, note?]`; a row labelled `---` is a rule; rows for which `isBold(label)` are bold.
 * `columns` (0 or absent: no limit) is the width no line passes: a longer note wraps at word boundaries.
 */
export function statementTable(
  rows: ReadonlyArray<readonly [string, string, string?]>,
  style: { bold: (s: string) => string; dim: (s: string) => string; isBold: (label: string) => boolean },
  columns = 0,
): string {
  const w0 = Math.max(...rows.map((r) => visible(r[0])));
  const w1 = Math.max(...rows.map((r) => visible(r[1])));
  return rows
    .map(([a, b, c]) => {
      if (a === '---') return style.dim('─'.repeat(w0 + w1 + 4));
      const row = `  ${a.padEnd(w0)}  ${' '.repeat(w1 - visible(b))}${b}`;
      const lines = [row];
      if (c) {
        const at = visible(row) + 2;
        if (columns <= 0 || at + visible(c) <= columns) lines[0] += `  ${style.dim(c)}`;
        else if (columns - at >= NOTE_MIN) {
          const [first, ...rest] = wrapWords(c, columns - at).split('\n');
          lines[0] += `  ${style.dim(first!)}`;
          lines.push(...rest.map((l) => `${' '.repeat(at)}${style.dim(l)}`));
        } else lines.push(...wrapWords(c, columns - NOTE_UNDER.length).split('\n').map((l) => `${NOTE_UNDER}${style.dim(l)}`));
      }
      return lines.map((l) => (style.isBold(a) ? style.bold(l) : l)).join('\n');
    })
    .join('\n');
}
