/** Parameter specs shared by many routes (spec doc 1 §1 items 5 and 8: pagination limits). */
import type { ParamSpec } from './route.js';

export const page: ParamSpec = { name: 'page', type: 'integer', min: 1, default: 1, description: 'page number, one-based' };
export const perPage: ParamSpec = {
  name: 'per_page',
  type: 'integer',
  min: 1,
  max: 100,
  default: 25,
  description: 'records per page, 1 to 100',
};
export const paging: ParamSpec[] = [page, perPage];

export const taxYearPath: ParamSpec = {
  name: 'tax_year',
  type: 'tax_year',
  description: 'tax year YYYY-YY',
  error: 'invalid_tax_year',
};
export const taxYearBody: ParamSpec = {
  name: 'tax_year',
  type: 'tax_year',
  description: 'tax year YYYY-YY; default the current year',
  error: 'invalid_tax_year',
};
export const taxRegion: ParamSpec = {
  name: 'region',
  type: 'string',
  enum: ['england_wales_ni', 'scotland'],
  default: 'england_wales_ni',
  error: 'invalid_region',
  vocabulary: 'region',
  description: 'england_wales_ni (default) or scotland; also a UK country or English region by name or GSS code (Scotland, S92000003 -> scotland; England, Wales, Northern Ireland or an English region -> england_wales_ni)',
};

export const GET_COST = 1;
export const POST_COST = 10;

/**
 * A full or partial UK postcode as a filter value: the area letters, then optionally the district, a space
 * and the sector and unit (`LS`, `LS8`, `LS8 3`, `LS8 3BS`, `SW1A1AA`; any case). Checked before any data
 * access or request, so a live call is never paid for a value no postcode can match.
 */
export const POSTCODE_PATTERN = String.raw`\s*[A-Za-z]{1,2}(\d[A-Za-z\d]?\s*(\d[A-Za-z]{0,2})?)?\s*`;
export const POSTCODE_HINT = 'a full or partial postcode such as LS8 3BS, LS8 3, LS8 or LS';

/** A Companies House number as typed: 1 to 8 digits (zero-padded), or a 2-letter prefix and 6 digits. */
export const COMPANY_NUMBER_PATTERN = String.raw`\s*(\d{1,8}|[A-Za-z]{2}\s*\d{6}|[Rr]\d{7})\s*`;
export const COMPANY_NUMBER_HINT = '8 characters: 8 digits (e.g. 00445790) or a 2-letter prefix and 6 digits (e.g. SC123456)';
