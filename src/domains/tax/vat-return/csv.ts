/**
 * A bookkeeping export (CSV with the transaction fields as columns) to the `transactions` array of the
 * VAT return body. RFC 4180 quoting ("" inside quoted fields, commas and newlines in quotes), CRLF or LF,
 * an optional UTF-8 BOM. Column names are matched without case and with spaces or dashes read as `_`.
 * Numbers become numbers (a leading £ and thousands commas are dropped; "(12.50)" is -12.50; a decimal
 * comma such as "10,00" is a bad_request, not 1000), true/false,
 * yes/no and 1/0 become booleans in boolean columns, and empty cells are left out. `id` and the other text
 * columns stay strings even when they look like numbers.
 */
import { ApiError } from '../../../contract/errors.js';
import { isUnsafeKey, unsafeKeyReason } from '../../../contract/safe-keys.js';
import { withoutThousands } from '../../../money.js';

const NUMBER_COLUMNS = new Set([
  'net_amount',
  'vat_amount',
  'gross_amount',
  'vat_rate_percentage',
  'amount_paid',
  'flat_rate_percentage',
]);
const BOOLEAN_COLUMNS = new Set(['is_capital_asset', 'input_tax_reclaimed']);

export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const n = text.length;
  let any = false;
  for (; i < n; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
      continue;
    }
    if (ch === '"') {
      quoted = true;
      any = true;
    } else if (ch === ',') {
      row.push(field);
      field = '';
      any = true;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      if (any || field !== '' || row.length > 1) rows.push(row);
      row = [];
      field = '';
      any = false;
    } else {
      field += ch;
      any = true;
    }
  }
  if (quoted) throw new SyntaxError('CSV: a quoted field is not closed');
  if (any || field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

const normaliseHeader = (h: string) => h.trim().toLowerCase().replace(/[\s-]+/g, '_');

/** An amount cell: `1,234.50`, `£1,234.50`, `(12.00)` (negative). A decimal comma (`10,00`) is refused. */
function toNumber(s: string, where: string): number | string {
  let t = s.trim().replace(/^£/, '');
  let neg = false;
  if (/^\(.*\)$/.test(t)) {
    neg = true;
    t = t.slice(1, -1).replace(/^£/, '');
  }
  const plain = withoutThousands(t);
  if (plain === undefined) {
    throw new ApiError(400, 'bad_request', `${where}: '${s.trim()}' is not an amount: a comma is allowed only as a thousands separator (1,000.50), never as the decimal point.`);
  }
  t = plain;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(t)) return s; // left as text: validation reports it
  const v = Number(t);
  return neg ? -v : v;
}

function toBoolean(s: string): boolean | string {
  const t = s.trim().toLowerCase();
  if (t === 'true' || t === 'yes' || t === 'y' || t === '1') return true;
  if (t === 'false' || t === 'no' || t === 'n' || t === '0') return false;
  return s;
}

/** CSV text (first row: column names) to transaction objects for the VAT return body. */
export function transactionsFromCsv(text: string): unknown[] {
  const rows = parseCsv(text);
  if (rows.length === 0) return [];
  const header = rows[0]!.map(normaliseHeader);
  // a column named __proto__ would set each row's prototype (`o[name] = …`), not a field: refused as in a JSON body
  const unsafe = header.find((h) => isUnsafeKey(h));
  if (unsafe !== undefined) throw new ApiError(400, 'bad_request', `column '${unsafe}' is refused: ${unsafeKeyReason(unsafe)}.`);
  const out: unknown[] = [];
  for (let r = 1; r < rows.length; r++) {
    const cells = rows[r]!;
    if (cells.every((c) => c.trim() === '')) continue;
    const o: Record<string, unknown> = {};
    for (let k = 0; k < header.length; k++) {
      const name = header[k]!;
      if (!name) continue;
      const cell = cells[k];
      if (cell === undefined || cell.trim() === '') continue;
      if (NUMBER_COLUMNS.has(name)) o[name] = toNumber(cell, `row ${r + 1}, column ${name}`);
      else if (BOOLEAN_COLUMNS.has(name)) o[name] = toBoolean(cell);
      else o[name] = cell.trim();
    }
    out.push(o);
  }
  return out;
}
