/**
 * The register's text values as API codes, and the company-name normalisation used for search. Each is
 * a SQL expression built from shipped data (data/companies/register-values.yaml), so the sync (which
 * stores the codes) and the handlers (which normalise the query the same way) share one definition.
 */
import { loadData } from '../../data.js';

interface RegisterValues {
  company_status: { values: Array<{ prefix: string; code: string }> };
  company_type: { values: Array<{ text: string; code: string }> };
  jurisdiction: { values: Array<{ prefixes: string[]; code: string | null }>; default: string };
}

const values = (): RegisterValues => loadData<RegisterValues>('companies/register-values');

/** A SQL string literal. */
export function sqlLiteral(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

/** Lower kebab case of a text (`Active - Proposal to Strike off` → `active-proposal-to-strike-off`). */
const slugSql = (expr: string) => `nullif(trim(regexp_replace(lower(${expr}), '[^a-z0-9]+', '-', 'g'), '-'), '')`;

/** CompanyStatus text → `active`, `liquidation`, ... (first matching prefix, else the text as a slug). */
export function statusSql(expr: string): string {
  const whens = values().company_status.values.map((v) => `WHEN starts_with(lower(trim(${expr})), ${sqlLiteral(v.prefix)}) THEN ${sqlLiteral(v.code)}`);
  return `CASE ${whens.join(' ')} ELSE ${slugSql(expr)} END`;
}

/** CompanyCategory text → `ltd`, `plc`, `llp`, ... (exact, case-insensitive, else the text as a slug). */
export function typeSql(expr: string): string {
  const whens = values().company_type.values.map((v) => `WHEN ${sqlLiteral(v.text.toLowerCase())} THEN ${sqlLiteral(v.code)}`);
  return `CASE lower(trim(${expr})) ${whens.join(' ')} ELSE ${slugSql(expr)} END`;
}

/** Jurisdiction from the company number's two-letter prefix (null for overseas companies and entities). */
export function jurisdictionOf(companyNumber: string): string | null {
  const v = values().jurisdiction;
  const p = companyNumber.slice(0, 2).toUpperCase();
  for (const j of v.values) if (j.prefixes.includes(p)) return j.code;
  return v.default;
}

/** Legal-form words at the end of a name that search ignores (`TESCO PLC` and `tesco` match exactly). */
const SUFFIXES = [
  'PUBLIC LIMITED COMPANY', 'LIMITED LIABILITY PARTNERSHIP', 'COMMUNITY INTEREST COMPANY', 'CWMNI CYFYNGEDIG CYHOEDDUS',
  'LIMITED', 'LTD', 'PLC', 'LLP', 'CIC', 'CYFYNGEDIG', 'CYF', 'CCC', 'LP',
];

/**
 * The normalised name as SQL: upper case, `&` → AND, apostrophes and dots dropped (`SAINSBURY'S` →
 * `SAINSBURYS`), every other run of non-alphanumerics one space, trimmed, trailing legal-form words
 * removed (a name that is only a legal form keeps it). `expr` may be a column or a `?` parameter.
 */
export function normNameSql(expr: string): string {
  const spaced = `trim(regexp_replace(regexp_replace(regexp_replace(upper(${expr}), '&', ' AND ', 'g'), '[''’.]', '', 'g'), '[^A-Z0-9]+', ' ', 'g'))`;
  const stripped = `trim(regexp_replace(' ' || ${spaced}, '( (${SUFFIXES.join('|')}))+$', ''))`;
  return `coalesce(nullif(${stripped}, ''), ${spaced})`;
}

/**
 * The name search index table (built by sync/companies.ts, read by register.ts): `word`, then what search
 * matches and ranks on. The answer's own columns are read from `companies` for the page's rows only.
 */
export const NAME_INDEX = 'company_name_words';
export const NAME_INDEX_COLUMNS = 'name_norm, company_number, active, name_length';

/**
 * The index columns from a `companies` row. `active` is null where the status is (an empty CompanyStatus),
 * so that it sorts as `company_status = 'active'` does in the ranking: true, false, then null.
 */
export const NAME_INDEX_SELECT = `name_norm, company_number, company_status = 'active' AS active, length(company_name) AS name_length`;

/** The columns of a search answer (the company summary). */
export const SEARCH_COLUMNS = 'company_number, company_name, company_status, company_type, incorporation_date, postcode, post_town, sic_codes';
