/**
 * Parsing of the `sync` command's option values (the sync framework takes them already parsed). The
 * date-scope options (`--years`, `--days`, `--months`) are declared by each dataset (DatasetInfo.dateScope,
 * src/mirror/catalog.ts): their bounds, default, help text and first year come from there.
 */
import { ApiError } from '../src/contract/errors.js';
import type { DatasetInfo, DateScopeOption } from '../src/mirror/catalog.js';
import { DATASETS as CATALOGUE, datasetByName } from '../src/registry.js';

/**
 * `--limit-rate 500k`, `2M`, `1.5M`, `1048576`: bytes per second (k/M/G are powers of 1024, as curl's
 * --limit-rate). Throws on anything else, including zero.
 */
export function parseRateOption(s: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?(?:\/s)?\s*$/i.exec(s);
  if (!m) throw new Error(`--limit-rate must be a number of bytes per second with an optional k, M or G (e.g. 500k, 2M), got '${s}'`);
  const n = Number(m[1]) * 1024 ** ' kmg'.indexOf((m[2] || ' ').toLowerCase());
  if (!(n >= 1)) throw new Error(`--limit-rate must be at least 1 byte per second, got '${s}'`);
  return Math.floor(n);
}

/** The date-scope options, in the order `sync --help` lists them, with their value placeholders. */
const SCOPE_FLAGS: Readonly<Record<DateScopeOption['name'], string>> = { years: '<from-to>', days: '<n>', months: '<n>' };

type ScopeName = DateScopeOption['name'];

/** The declarations of option `name` by the datasets of `catalogue` (DatasetInfo.dateScope), catalogue order. */
export function scopeDeclarations(name: ScopeName, catalogue: readonly DatasetInfo[] = CATALOGUE): Array<{ dataset: string; option: DateScopeOption }> {
  return catalogue.flatMap((d) => (d.dateScope ?? []).filter((o) => o.name === name).map((option) => ({ dataset: d.name, option })));
}

/**
 * The `sync` command's date-scope options: each one some dataset declares, once, its help naming every
 * dataset that takes it (with its default), so the command names no dataset itself.
 */
export function scopeOptions(catalogue: readonly DatasetInfo[] = CATALOGUE): Array<{ name: ScopeName; flags: string; description: string }> {
  return (Object.keys(SCOPE_FLAGS) as ScopeName[]).flatMap((name) => {
    const declared = scopeDeclarations(name, catalogue);
    if (!declared.length) return [];
    const each = declared.map(({ dataset, option: o }) => `${dataset}: ${o.description}${o.default !== undefined ? ` (default ${o.default})` : ''}`);
    const form = name === 'years' ? 'YYYY or YYYY-YYYY' : `1 to ${Math.max(...declared.map(({ option: o }) => ('max' in o ? o.max : 0)))}`;
    return [{ name, flags: `--${name} ${SCOPE_FLAGS[name]}`, description: `${each.join('; ')} (${form})` }];
  });
}

/** `sync --help` examples of the date-scope options: the first dataset declaring an example of each. */
export function scopeExamples(catalogue: readonly DatasetInfo[] = CATALOGUE): string[] {
  return (Object.keys(SCOPE_FLAGS) as ScopeName[]).flatMap((name) => {
    const d = scopeDeclarations(name, catalogue).find(({ option }) => option.example !== undefined);
    return d ? [`publicdata sync ${d.dataset} --${name} ${d.option.example}`] : [];
  });
}

/**
 * Parse `--years 2020-2025` (or a single `2024`) into SyncOptions.years; throws on nonsense, and on a year
 * before the first year (DatasetInfo.dateScope `firstYear`) of any of `datasets` (naming that dataset's own start).
 */
export function parseYearsOption(s: string, datasets: readonly string[] = []): { from: number; to: number } {
  const m = /^\s*(\d{4})\s*(?:-\s*(\d{4}))?\s*$/.exec(s);
  if (!m) throw new Error(`--years must be YYYY or YYYY-YYYY, got '${s}'`);
  const from = Number(m[1]);
  const to = Number(m[2] ?? m[1]);
  if (from > to) throw new Error(`--years: ${from} is after ${to}`);
  for (const { option } of scopeDeclarations('years', CATALOGUE.filter((d) => datasets.includes(d.name)))) {
    const first = option.name === 'years' ? option.firstYear : undefined;
    if (first && from < first.year) throw new Error(`--years: ${first.what} (got ${from})`);
  }
  return { from, to };
}

/**
 * The date scope given for the datasets `list` (SyncOptions.years/days/months), checked against their
 * declarations: an option none of them declares, a count outside 1 to the smallest declared maximum, a
 * year before a first year, or `--days` with `--months`, is a usage error (exit 2).
 */
export function parseScopeOptions(
  o: { years?: string; days?: string; months?: string },
  list: readonly string[],
): { years?: { from: number; to: number }; days?: number; months?: number } {
  const datasets = CATALOGUE.filter((d) => list.includes(d.name));
  const out: { years?: { from: number; to: number }; days?: number; months?: number } = {};
  for (const name of Object.keys(SCOPE_FLAGS) as ScopeName[]) {
    const v = o[name];
    if (v === undefined) continue;
    const declared = scopeDeclarations(name, datasets);
    if (!declared.length) {
      const takers = scopeDeclarations(name).map((d) => d.dataset);
      throw new ApiError(400, 'usage_error', `sync: --${name} applies to ${takers.join(', ')}, not to ${list.join(', ')}.`);
    }
    if (name === 'years') {
      try {
        out.years = parseYearsOption(v, list);
      } catch (e) {
        throw new ApiError(400, 'usage_error', (e as Error).message);
      }
      continue;
    }
    const max = Math.min(...declared.map(({ option }) => ('max' in option ? option.max : Infinity)));
    const n = Number(v);
    if (!/^\d+$/.test(v) || n < 1 || n > max) throw new ApiError(400, 'usage_error', `sync: --${name} must be a whole number from 1 to ${max}, got '${v}'.`);
    out[name] = n;
  }
  if (out.days !== undefined && out.months !== undefined) throw new ApiError(400, 'usage_error', 'sync: give --days or --months, not both.');
  return out;
}

/** The date-scope options `dataset` declares discovery-only (DatasetInfo.dateScope `discoveryOnly`). */
export function discoveryOnlyOptions(dataset: string): ScopeName[] {
  return (datasetByName(dataset)?.dateScope ?? []).filter((o) => o.discoveryOnly).map((o) => o.name);
}
