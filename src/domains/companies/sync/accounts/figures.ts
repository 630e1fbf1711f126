/**
 * From facts and contexts to the filing and its period rows: deduplication and conflicts, the balance-sheet
 * date and comparative period, headline figures picked by the concept map's priorities, current
 * liabilities and total assets with their basis, and the filing metadata (type, standard, dormant).
 */
import type { Compiled, FigureName } from './concepts.js';
import { decEqual, decToPence, decToText, rescaleDec, type Dec } from '../../../../money.js';
import { isDate, parseLooseDate, parseMemberName } from './document.js';
import type { Conflict, Context, ExtractResult, FilingType, PeriodRow, RawFact } from './types.js';

function plain(C: Compiled, c: Context): boolean {
  if (c.typed) return false;
  for (const d of c.dims.keys()) if (!C.ignoredDims.has(d)) return false;
  return true;
}

/** The date a context "is at": its instant, or the end of its duration. */
function ctxDate(c: Context): string | undefined {
  return c.instant ?? c.end;
}

export function assemble(
  C: Compiled, name: string, format: 'ixbrl' | 'xbrl', contexts: Map<string, Context>, facts: RawFact[], factCount: number,
): ExtractResult {
  const md = C.map.metadata;
  const fromName = parseMemberName(name);
  const textOf = (concepts: string[]): string | undefined => {
    for (const c of concepts) {
      const f = facts.find((x) => x.concept === c && x.text.trim() !== '');
      if (f) return f.text.replace(/\s+/g, ' ').trim();
    }
    return undefined;
  };
  // company number: member name, else the registered-number fact
  let company = fromName?.company_number;
  if (!company) {
    const t = textOf(md.company_number_facts)?.replace(/\s+/g, '').toUpperCase();
    if (t && /^[A-Z0-9]{1,8}$/.test(t)) company = t.padStart(8, '0');
  }
  if (!company) return { ok: false, reason: 'no company number (member name not Prod…_<number>_<date> and no registered-number fact)' };

  // dedupe numeric facts per (concept, context); conflicts flagged
  const seen = new Map<string, RawFact>();
  const conflicts: Conflict[] = [];
  let duplicates = 0;
  const numeric: RawFact[] = [];
  for (const f of facts) {
    if (!f.numeric) continue;
    const key = `${f.concept}\u0000${f.ctx}`;
    const prev = seen.get(key);
    if (!prev) {
      seen.set(key, f);
      numeric.push(f);
      continue;
    }
    duplicates++;
    if (prev.value === null && f.value !== null) {
      numeric[numeric.indexOf(prev)] = f;
      seen.set(key, f);
    } else if (prev.value && f.value && !decEqual(prev.value, f.value) && !consistent(prev, f)) {
      const c = conflicts.find((x) => x.concept === f.concept && x.context === f.ctx);
      const v = decToText(f.value);
      if (c) {
        if (!c.values.includes(v)) c.values.push(v);
      } else conflicts.push({ concept: f.concept, context: f.ctx, values: [decToText(prev.value), v] });
    }
  }

  // balance-sheet date: member name, else BalanceSheetDate, else the latest plain context date
  let bsd = fromName?.balance_sheet_date || undefined;
  if (!bsd) {
    const f = facts.find((x) => md.balance_sheet_date_facts.includes(x.concept));
    const c = f ? contexts.get(f.ctx) : undefined;
    bsd = (c && ctxDate(c)) ?? (f ? parseLooseDate(f.text) ?? undefined : undefined);
  }
  const plainDates = new Set<string>();
  for (const c of contexts.values()) if (plain(C, c)) {
    const d = ctxDate(c);
    if (d && isDate(d) && d >= '1900-01-01') plainDates.add(d);
  }
  if (!bsd) bsd = [...plainDates].sort().pop();
  if (!bsd) return { ok: false, reason: 'no balance-sheet date (member name, BalanceSheetDate or contexts)' };

  // figures per period end
  const hasHeadline = new Set<string>();
  for (const f of numeric) {
    if (f.value === null || !C.byConcept.has(f.concept)) continue;
    const c = contexts.get(f.ctx);
    if (c && plain(C, c)) {
      const d = ctxDate(c);
      if (d) hasHeadline.add(d);
    }
  }
  const comparative = [...hasHeadline].filter((d) => d < bsd! && d >= '1900-01-01' && isDate(d)).sort().pop();
  // (built as a literal and a push, not `.map` over the ends: the array then keeps one shape, and the
  // optimised assemble is not thrown away over it in every worker, a "wrong map" deopt seen with --trace-deopt)
  const periods: PeriodRow[] = [periodRow(C, bsd, true, contexts, numeric)];
  if (comparative) periods.push(periodRow(C, comparative, false, contexts, numeric));

  // filing metadata from the dimension member of the metadata facts' contexts
  const memberOf = (factNames: string[], dim: string): string | undefined => {
    for (const f of facts) {
      if (!factNames.includes(f.concept)) continue;
      const m = contexts.get(f.ctx)?.dims.get(dim);
      if (m) return m;
    }
    return undefined;
  };
  const typeMember = memberOf(md.accounts_type_facts, md.accounts_type_dimension);
  const stdMember = memberOf(md.standard_facts, md.standard_dimension);
  const standard = stdMember ? md.standard_members[stdMember] ?? stdMember : null;
  const dormantFact = facts.find((f) => md.dormant_facts.includes(f.concept));
  const dormant = dormantFact ? booleanFact(dormantFact) : null;
  let filingType: FilingType | null = typeMember ? ((md.accounts_type_members[typeMember] as FilingType | undefined) ?? null) : null;
  if (standard && md.micro_standards.includes(standard)) filingType = 'micro';
  if (dormant === true) filingType = 'dormant';
  const authorised = facts.find((f) => f.concept === 'DateAuthorisationFinancialStatementsForIssue');
  const current = periods[0]!;
  return {
    ok: true,
    filing: {
      company_number: company,
      company_name: textOf(md.company_name_facts) ?? null,
      balance_sheet_date: bsd,
      period_start: current.period_start,
      filing_type: filingType,
      accounting_standard: standard,
      dormant,
      format,
      date_authorised: authorised ? dateOfFact(authorised, contexts) : null,
      facts: factCount,
      duplicates,
      conflicts,
      periods: periods.filter((p, i) => i === 0 || hasAny(p)),
    },
  };
}

function dateOfFact(f: RawFact, contexts: Map<string, Context>): string | null {
  return parseLooseDate(f.text) ?? (contexts.get(f.ctx)?.instant ?? null);
}

function booleanFact(f: RawFact): boolean | null {
  const fmt = (f.format ?? '').toLowerCase();
  if (fmt.endsWith('booleantrue') || fmt.endsWith('fixed-true')) return true;
  if (fmt.endsWith('booleanfalse') || fmt.endsWith('fixed-false')) return false;
  const t = f.text.trim().toLowerCase();
  return t === 'true' ? true : t === 'false' ? false : null;
}

/** Two facts stated with different precision agree when equal at the coarser `decimals`. */
function consistent(a: RawFact, b: RawFact): boolean {
  const da = a.decimals && a.decimals !== 'INF' ? Number(a.decimals) : Infinity;
  const db = b.decimals && b.decimals !== 'INF' ? Number(b.decimals) : Infinity;
  const d = Math.min(da, db);
  if (!Number.isFinite(d) || !a.value || !b.value) return false;
  return rescaleDec(a.value, -d) === rescaleDec(b.value, -d);
}

const MONEY_FIGURES: Array<keyof PeriodRow & FigureName> = [
  'revenue', 'cost_of_sales', 'gross_profit', 'profit_before_tax', 'fixed_assets', 'current_assets',
  'net_current_assets', 'total_assets_less_current_liabilities', 'cash', 'net_assets', 'directors_remuneration',
];

function hasAny(p: PeriodRow): boolean {
  return MONEY_FIGURES.some((k) => p[k] !== null) || p.employees !== null || p.total_assets !== null;
}

interface Picked {
  value: Dec;
  concept: string;
  fact: RawFact;
}

function periodRow(C: Compiled, end: string, isCurrent: boolean, contexts: Map<string, Context>, facts: RawFact[]): PeriodRow {
  // the main duration ending here: the longest plain duration context that carries a headline fact
  let start: string | null = null;
  for (const f of facts) {
    const c = contexts.get(f.ctx);
    if (!c || !c.start || c.end !== end || !plain(C, c) || !C.byConcept.has(f.concept)) continue;
    if (isDate(c.start) && (start === null || c.start < start)) start = c.start;
  }
  if (start === null) {
    for (const c of contexts.values()) {
      if (c.start && c.end === end && plain(C, c) && isDate(c.start) && (start === null || c.start < start)) start = c.start;
    }
  }
  const best = new Map<FigureName, { pr: number; p: Picked }>();
  for (const f of facts) {
    if (f.value === null) continue;
    const targets = C.byConcept.get(f.concept);
    if (!targets) continue;
    const c = contexts.get(f.ctx);
    if (!c || !plain(C, c)) continue;
    for (const t of targets) {
      const spec = C.map.figures[t.figure];
      if (spec.period === 'instant' ? ctxDate(c) !== end : !(c.start && c.end === end)) continue;
      // a duration figure must span the period's main duration when there is one
      if (spec.period === 'duration' && start && c.start !== start) continue;
      const cur = best.get(t.figure);
      if (!cur || t.priority < cur.pr) best.set(t.figure, { pr: t.priority, p: { value: f.value, concept: f.concept, fact: f } });
    }
  }
  const pence = (k: FigureName): bigint | null => {
    const b = best.get(k);
    return b ? decToPence(b.p.value) : null;
  };
  const row: PeriodRow = {
    period_end: end,
    period_start: start,
    is_current: isCurrent,
    revenue: pence('revenue'),
    cost_of_sales: pence('cost_of_sales'),
    gross_profit: pence('gross_profit'),
    profit_before_tax: pence('profit_before_tax'),
    fixed_assets: pence('fixed_assets'),
    current_assets: pence('current_assets'),
    current_liabilities: null,
    current_liabilities_basis: null,
    net_current_assets: pence('net_current_assets'),
    total_assets_less_current_liabilities: pence('total_assets_less_current_liabilities'),
    total_assets: null,
    total_assets_basis: null,
    cash: pence('cash'),
    net_assets: pence('net_assets'),
    net_assets_concept: best.get('net_assets')?.p.concept ?? null,
    employees: null,
    directors_remuneration: pence('directors_remuneration'),
  };
  // employees: a whole count; a negative scale on a count is a tagging slip, so the displayed integer is used
  const emp = best.get('employees');
  if (emp) {
    const f = emp.p.fact;
    const v = f.scale < 0 && f.displayed ? f.displayed : emp.p.value;
    const n = rescaleDec(v, 0);
    row.employees = Number(n < 0n ? -n : n);
  }
  // current liabilities (creditors due within one year)
  const cl = currentLiabilities(C, end, contexts, facts);
  const prepay = pence('prepayments_outside_current_assets');
  if (cl !== null) {
    row.current_liabilities = cl;
    row.current_liabilities_basis = 'reported';
  } else {
    const undim = undimensionedCreditors(C, end, contexts, facts);
    if (undim !== null && row.current_assets !== null && row.net_current_assets !== null &&
      row.current_assets + (prepay ?? 0n) - row.net_current_assets === undim) {
      row.current_liabilities = undim;
      row.current_liabilities_basis = 'undimensioned';
    } else if (row.current_assets !== null && row.net_current_assets !== null) {
      row.current_liabilities = row.current_assets + (prepay ?? 0n) - row.net_current_assets;
      row.current_liabilities_basis = 'derived';
    }
  }
  // total assets (docs/companies.md "Total assets")
  const reported = pence('total_assets_reported');
  const unpaid = pence('called_up_share_capital_not_paid');
  if (reported !== null) {
    row.total_assets = reported;
    row.total_assets_basis = 'reported';
  } else if (row.fixed_assets === null && row.total_assets_less_current_liabilities !== null && row.current_liabilities !== null) {
    row.total_assets = row.total_assets_less_current_liabilities + row.current_liabilities;
    row.total_assets_basis = 'talcl';
  } else if (row.fixed_assets !== null || row.current_assets !== null) {
    row.total_assets = (unpaid ?? 0n) + (row.fixed_assets ?? 0n) + (row.current_assets ?? 0n) + (prepay ?? 0n);
    row.total_assets_basis = 'sum';
  }
  return row;
}

function currentLiabilities(C: Compiled, end: string, contexts: Map<string, Context>, facts: RawFact[]): bigint | null {
  const members = C.map.current_liabilities.dimension_members;
  for (const concept of C.map.current_liabilities.concepts) {
    for (const f of facts) {
      if (f.concept !== concept || f.value === null) continue;
      const c = contexts.get(f.ctx);
      if (!c || c.typed || ctxDate(c) !== end) continue;
      let match = false;
      let other = false;
      for (const [d, m] of c.dims) {
        if (C.ignoredDims.has(d)) continue;
        if (members[d]?.includes(m)) match = true;
        else other = true;
      }
      if (match && !other) return decToPence(f.value);
    }
  }
  for (const concept of C.map.current_liabilities.undimensioned_concepts) {
    for (const f of facts) {
      if (f.concept !== concept || f.value === null) continue;
      const c = contexts.get(f.ctx);
      if (c && plain(C, c) && ctxDate(c) === end) return decToPence(f.value);
    }
  }
  return null;
}

function undimensionedCreditors(C: Compiled, end: string, contexts: Map<string, Context>, facts: RawFact[]): bigint | null {
  for (const f of facts) {
    if (!C.clConcepts.has(f.concept) || C.clUndim.has(f.concept) || f.value === null) continue;
    const c = contexts.get(f.ctx);
    if (c && plain(C, c) && ctxDate(c) === end) return decToPence(f.value);
  }
  return null;
}
