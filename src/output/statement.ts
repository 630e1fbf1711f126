/**
 * A two-column statement for a terminal (label, right-aligned amount, dim note), as `tax take-home` and
 * `energy bill` print: presentation primitives a domain's renderer uses (no data, no registry).
 */

/** Wrap in an ANSI style when colour is on. */
export const ansi = (code: string, on: boolean) => (s: string): string => (on ? `\u001b[${code}m${s}\u001b[0m` : s);

/** Length as displayed (without ANSI colour codes). */
export const visible = (s: string): number => s.replace(/\u001b\[[0-9;]*m/g, '').length;

/** £12,345.67 (display only: the amount is already exact pounds). */
export function money(n: number): string {
  const [int, dec] = Math.abs(n).toFixed(2).split('.');
  return `${n < 0 ? '-' : ''}£${int!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${dec}`;
}

/** Rows `[label, amount, note?]`; a row labelled `---` is a rule; rows for which `isBold(label)` are bold. */
export function statementTable(
  rows: ReadonlyArray<readonly [string, string, string?]>,
  style: { bold: (s: string) => string; dim: (s: string) => string; isBold: (label: string) => boolean },
): string {
  const w0 = Math.max(...rows.map((r) => visible(r[0])));
  const w1 = Math.max(...rows.map((r) => visible(r[1])));
  return rows
    .map(([a, b, c]) => {
      if (a === '---') return style.dim('─'.repeat(w0 + w1 + 4));
      const line = `  ${a.padEnd(w0)}  ${' '.repeat(w1 - visible(b))}${b}${c ? `  ${style.dim(c)}` : ''}`;
      return style.isBold(a) ? style.bold(line) : line;
    })
    .join('\n');
}
