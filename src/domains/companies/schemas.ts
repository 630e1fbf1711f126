/**
 * Response schemas of the company routes, transcribed from docs/spec/2-property-companies.md (§2 Companies
 * resources, §3 states, §4 Companies) and the envelope rules of 1-overview-auth-errors-limits.md §1; the
 * financial routes are in ./schemas-financial.ts. Where the open data cannot give a value the spec types
 * (a name for a company missing from the register snapshot, a super-secure PSC's name and dates, a barcode)
 * the field is null with a meta note, never an invented value; each such null is described here.
 */
import {
  arr, bool, constant, date, ext, int, nullable, obj, oneOf, record, str, timestamp, anyOf, type JsonSchema, type ResponseSchemas,
} from '../../contract/schema.js';
import { COMPANY_NUMBER, financialResponses, META, SPEC } from './schemas-financial.js';

const COMPANIES = `${SPEC} §4 Companies`;
/** A name from the register, null when the company is not in the register snapshot of the local mirror. */
const NAME_IF_REGISTERED = nullable(str('null when the company is not in the register snapshot of the local mirror (a meta.note says why)'));

// ---------------------------------------------------------------------------------------------------
// Register: summary, detail, statistics, geography, sector analytics, filing status

const NO_INCORPORATION = 'null where the register snapshot gives no IncorporationDate (the spec is silent on it)';
const REGISTER_BLANK = 'null where the register snapshot leaves it blank (the spec gives no type)';

const summary = obj({
  company_number: COMPANY_NUMBER,
  company_name: str(),
  company_status: str('e.g. active, dissolved, liquidation (§3)'),
  company_type: str('values seen: ltd, plc, llp'),
  date_of_creation: nullable(date(NO_INCORPORATION)),
  registered_office_address: obj({ postal_code: nullable(str(REGISTER_BLANK)), locality: nullable(str(REGISTER_BLANK)) }),
  sic_codes: arr(str()),
});

const NO_DUE_DATE = 'null when the register gives no due date (§3: compliance_status unknown, "no due date available")';

const detail = obj({
  company_number: COMPANY_NUMBER,
  company_name: str(),
  company_status: str(),
  company_type: str(),
  date_of_creation: nullable(date(NO_INCORPORATION)),
  date_of_cessation: nullable(date()),
  registered_office_address: obj({
    address_line_1: nullable(str(REGISTER_BLANK)),
    locality: nullable(str(REGISTER_BLANK)),
    postal_code: nullable(str(REGISTER_BLANK)),
    country: nullable(str(REGISTER_BLANK)),
  }),
  sic_codes: arr(obj({ code: str(), description: str() })),
  accounts: obj({ next_due: nullable(date(NO_DUE_DATE)), last_made_up_to: nullable(date()) }),
  confirmation_statement: obj({ next_due: nullable(date(NO_DUE_DATE)) }),
  jurisdiction: nullable(
    str('from the company number prefix (england-wales, scotland, northern-ireland); null for overseas companies and entities (FC, SF, NF, OE), whose jurisdiction the bulk file does not give'),
  ),
  uri: str('path to the company'),
});

const NO_SECTION = 'null for 99999 Dormant Company, a Companies House code that is in no SIC 2007 section (docs/companies.md; the spec is silent on it)';
const sicCode = { code: str(), description: str(), section: nullable({ type: 'string', pattern: '^[A-Z]$', description: `one letter; ${NO_SECTION}` }) };

const statistics = obj({
  total_companies: int(),
  by_status: record(nullable(int()), 'count per company_status; dissolved is null: the bulk file holds only the live register (meta.note)'),
  by_type: record(int(), 'count per company_type'),
  incorporations_this_month: int(),
  incorporations_this_year: int(),
  data_as_of: date(),
});

const incorporations = obj({ this_year: int(), last_year: int() });

const geography = obj({
  postcode_prefix: str(),
  company_count: int(),
  active_count: int(),
  by_status: record(int(), 'count per company_status'),
  top_sic_codes: arr(obj({ code: str(), description: str(), count: int() })),
  incorporations,
});

const NOT_SYNCED = 'null when the accounts data is not in the local mirror (meta.note says so)';
const sectorAnalytics = obj({
  sic_code: str(),
  sic_description: str(),
  sic_section: str(),
  company_count: int(),
  active_count: int(),
  by_status: record(int(), 'count per company_status'),
  incorporations,
  financial_benchmarks: nullable(
    obj(
      {
        median_revenue: nullable(num0('pounds')),
        median_profit_margin: nullable(num0('percent')),
        median_total_assets: nullable(num0('pounds')),
      },
      { description: `"when available": ${NOT_SYNCED}` },
    ),
  ),
  filing_count: nullable(int(NOT_SYNCED)),
  benchmark_calculated_at: nullable(timestamp(NOT_SYNCED)),
});

/** A number, for fields whose null is explained by their parent. */
function num0(description: string): JsonSchema {
  return { type: 'number', description: `${description}; null when no company in the sector states the figure` };
}

const filingStatus = obj({
  company_number: COMPANY_NUMBER,
  company_name: str(),
  company_status: str(),
  compliance_status: oneOf(['up_to_date', 'due_soon', 'overdue', 'not_applicable', 'unknown']),
  accounts_next_due: nullable(date(NO_DUE_DATE)),
  accounts_last_made_up_to: nullable(date('null when no accounts have been made up yet (as last_made_up_to of the company detail)')),
  confirmation_next_due: nullable(date(NO_DUE_DATE)),
  days_until_due: nullable(int('null when there is no due date, or the company is not active (not_applicable)')),
  days_since_last_filing: nullable(int('null when the local mirror holds no accounts filing of the company')),
  is_overdue: bool(),
  latest_filing: nullable(
    obj(
      { period_end: date(), filing_type: nullable(str()), has_financials: bool() },
      { description: 'null when the local mirror holds no accounts filing of the company' },
    ),
  ),
});

// ---------------------------------------------------------------------------------------------------
// PSC, changes, network, timeline

const SUPER_SECURE = 'null for super-secure PSCs, published without name, nationality or dates (meta.note)';
const pscRecord = obj({
  psc_type: str('value seen: individual (also corporate_entity, legal_person, super_secure ...)'),
  kind: str(),
  name: nullable(str(SUPER_SECURE)),
  nationality: nullable(str(`null for corporate entities and legal persons, which have none; ${SUPER_SECURE}`)),
  country_of_residence: nullable(str(`null for corporate entities and legal persons, which have none; ${SUPER_SECURE}`)),
  natures_of_control: arr(str()),
  notified_on: nullable(date(SUPER_SECURE)),
  ceased_on: nullable(date()),
});

const psc = obj({ company_number: COMPANY_NUMBER, company_name: NAME_IF_REGISTERED, psc_count: int(), psc_records: arr(pscRecord) });

const changeBase = { date: date(), name: nullable(str(SUPER_SECURE)), psc_type: str() };
const pscChanges = obj({
  company_number: COMPANY_NUMBER,
  company_name: NAME_IF_REGISTERED,
  total_events: int(),
  events: arr(
    anyOf(
      obj({ event: constant('appointed'), ...changeBase, natures_of_control: arr(str()) }),
      obj({ event: constant('ceased'), ...changeBase }, { description: 'natures_of_control is absent on ceased' }),
    ),
    'chronological order',
  ),
});

const network = obj({
  company_number: COMPANY_NUMBER,
  company_name: NAME_IF_REGISTERED,
  psc_count: int(),
  controllers: arr(
    obj({
      name: nullable(str(SUPER_SECURE)),
      psc_type: str(),
      nationality: nullable(str('null for corporate entities and legal persons, which have none')),
      natures_of_control: arr(str()),
    }),
  ),
  related_companies: arr(
    obj({
      controller_name: nullable(str(SUPER_SECURE)),
      companies: arr(obj({ company_number: COMPANY_NUMBER, company_name: NAME_IF_REGISTERED, company_status: nullable(str('null when the company is not in the register snapshot of the local mirror')) })),
    }),
  ),
  network_size: int(),
});

/** Timeline `details` (§2 "Timeline event": optional; the spec lists those of accounts_filed and psc_notified). */
const details = anyOf(
  obj({
    filing_type: nullable(str()),
    has_financials: bool(),
    period_end: ext(date(), 'the balance-sheet date of the accounts filed'),
    date_precision: ext(oneOf(['day', 'month']), "precision of the event's date: the bulk file's publication day, or month for monthly archives"),
  }),
  obj({ name: nullable(str(SUPER_SECURE)), psc_type: str() }, { description: 'psc_notified (spec), and psc_ceased (publicdata gives the same details)' }),
  ext(
    obj({ date_precision: constant('snapshot'), last_seen_on_register: nullable(date()) }),
    'cessation of a company seen leaving the register snapshot: dated by the snapshot it was first missing from',
  ),
);

const timeline = obj({
  company_number: COMPANY_NUMBER,
  company_name: str(),
  event_count: int(),
  events: arr(
    obj(
      {
        date: date(),
        type: oneOf(['incorporation', 'accounts_filed', 'psc_notified', 'psc_ceased', 'cessation']),
        description: str(),
        details,
      },
      { optional: ['details'] },
    ),
    'newest first',
  ),
});

export const responses: ResponseSchemas = {
  'companies.search': {
    data: arr(summary, 'ranked by relevance'),
    meta: [...META, 'query'],
    source: `${COMPANIES} (search: company summaries, "meta.query echoes q"); §2 "Company summary"`,
  },
  'companies.list': { data: arr(summary), meta: META, source: `${COMPANIES} (GET /v1/companies); §2 "Company summary"` },
  'companies.get': { data: detail, meta: META, source: `${COMPANIES} ({company_number}); §2 "Company detail"` },
  'companies.sic-codes': { data: arr(obj(sicCode)), meta: META, source: `${COMPANIES} (sic-codes); §2 "Industry code"` },
  'companies.sic-codes.get': {
    data: obj({ ...sicCode, section_description: nullable(str(NO_SECTION)) }),
    meta: META,
    source: `${COMPANIES} (sic-codes/{code}); §2 "Industry code" with section_description`,
  },
  'companies.statistics': { data: statistics, meta: META, source: `${COMPANIES} (statistics)` },
  'companies.geography': { data: geography, meta: META, source: `${COMPANIES} (geography/{postcode_prefix})` },
  'companies.sector-analytics': { data: sectorAnalytics, meta: META, source: `${COMPANIES} (sectors/{sic_code}/analytics)` },
  'companies.filing-status': { data: filingStatus, meta: META, source: `${COMPANIES} ({company_number}/filing-status); §3 filing compliance status` },
  'companies.psc': { data: psc, meta: META, source: `${COMPANIES} ({company_number}/psc); §2 "Person with significant control (PSC) record"` },
  'companies.psc.changes': { data: pscChanges, meta: META, source: `${COMPANIES} ({company_number}/psc/changes); §2 "PSC change event"` },
  'companies.network': { data: network, meta: META, source: `${COMPANIES} ({company_number}/network)` },
  'companies.timeline': { data: timeline, meta: META, source: `${COMPANIES} ({company_number}/timeline); §2 "Timeline event", §3 timeline event types` },
  ...financialResponses,
};
