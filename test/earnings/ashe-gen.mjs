/**
 * GENERATED, format-true ONS ASHE tables (NOT ONS data). ONS publishes no open example of Tables 4
 * (industry), 7 (workplace) and 14 (occupation) that this repository may copy, nor of the weekly and hourly
 * sub-tables, so tests and bench/earnings.bench.mjs write them here in the layout of the real Home
 * Geography Table 8.7a, 2020 (test/fixtures/earnings/): a 'Notes' sheet, then nine sheets (All, Male,
 * Female, Full-Time, Part-Time, Male/Female Full-/Part-Time); row 1 the title ('Table 7.7a   Annual pay -
 * Gross (£) - For all employee jobsa: United Kingdom, 2022'); rows 3-5 the three-row header; data from
 * row 6 with indented districts; a code-less 'Not Classified' row; footnotes; the key at S7:T14; 'x' for
 * suppressed cells. Every generated workbook says GENERATED in its Notes sheet and in cell A2 of the data
 * sheets. Values are deterministic functions of the row, sheet, measure and year (monotone percentiles).
 * Written with SheetJS (@e965/xlsx): .xls (BIFF8) or .xlsx; zips (as ONS ships them) with fflate.
 */
import * as XLSX from '@e965/xlsx';
import { zipSync } from 'fflate';

export const SHEETS = ['All', 'Male', 'Female', 'Full-Time', 'Part-Time', 'Male Full-Time', 'Male Part-Time', 'Female Full-Time', 'Female Part-Time'];
const SHEET_WORD = { All: 'all', Male: 'male', Female: 'female', 'Full-Time': 'full-time', 'Part-Time': 'part-time',
  'Male Full-Time': 'male full-time', 'Male Part-Time': 'male part-time', 'Female Full-Time': 'female full-time', 'Female Part-Time': 'female part-time' };
const SHEET_SCALE = { All: 1, Male: 1.12, Female: 0.86, 'Full-Time': 1.25, 'Part-Time': 0.42, 'Male Full-Time': 1.33, 'Male Part-Time': 0.4, 'Female Full-Time': 1.15, 'Female Part-Time': 0.44 };

export const MEASURES = {
  '1': { title: 'Weekly pay - Gross', base: 480, dp: 1 },
  '5': { title: 'Hourly pay - Excluding overtime', base: 13.1, dp: 2 },
  '7': { title: 'Annual pay - Gross', base: 25000, dp: 0 },
};
/** Percentile multiples of the median (a typical ASHE shape), in column order 10 ... 90. */
const SHAPE = [0.34, 0.54, 0.63, 0.71, 0.85, 1.17, 1.38, 1.51, 1.66, 2.16];

const PREFIX = { '4': 'SIC07 Industry (2) SIC2007', '7': 'Work Geography', '8': 'Home Geography', '14': 'Occupation SOC20 (4)' };

/** The ONS member name: 'PROV - Work Geography Table 7.7a   Annual pay - Gross 2022.xls'. */
export function memberName(table, sub, year, provisional, ext = 'xls') {
  return `${provisional ? 'PROV - ' : ''}${PREFIX[table]} Table ${table}.${sub}a   ${MEASURES[sub].title} ${year}.${ext}`;
}

/** The ONS zip name of a table and year: ashetable72022provisional.zip. */
export function zipName(table, year, provisional) {
  return `ashetable${table}${year}${provisional ? 'provisional' : 'revised'}.zip`;
}

const SECTION_NAMES = {
  A: 'Agriculture, forestry and fishing', B: 'Mining and quarrying', C: 'Manufacturing',
  D: 'Electricity, gas, steam and air conditioning supply', E: 'Water supply; sewerage, waste management and remediation activities',
  F: 'Construction', G: 'Wholesale and retail trade; repair of motor vehicles and motorcycles', H: 'Transportation and storage',
  I: 'Accommodation and food service activities', J: 'Information and communication', K: 'Financial and insurance activities',
  L: 'Real estate activities', M: 'Professional, scientific and technical activities', N: 'Administrative and support service activities',
  O: 'Public administration and defence; compulsory social security', P: 'Education', Q: 'Human health and social work activities',
  R: 'Arts, entertainment and recreation', S: 'Other service activities', T: 'Activities of households as employers', U: 'Activities of extraterritorial organisations and bodies',
};
const SECTION_DIVISIONS = { A: [1, 3], B: [5, 9], C: [10, 33], D: [35, 35], E: [36, 39], F: [41, 43], G: [45, 47], H: [49, 53], I: [55, 56], J: [58, 63],
  K: [64, 66], L: [68, 68], M: [69, 75], N: [77, 82], O: [84, 84], P: [85, 85], Q: [86, 88], R: [90, 93], S: [94, 96], T: [97, 98], U: [99, 99] };

/** Table 4 rows: 'All employees' (no code), then each section and its divisions (division names generated). */
export function industryRows() {
  const rows = [{ name: 'All employees', code: '' }];
  for (const [s, name] of Object.entries(SECTION_NAMES)) {
    rows.push({ name, code: s });
    const [a, b] = SECTION_DIVISIONS[s];
    for (let d = a; d <= b; d++) rows.push({ name: `  Generated division ${String(d).padStart(2, '0')}`, code: String(d).padStart(2, '0') });
  }
  return rows;
}

const MAJOR_NAMES = ['Managers, directors and senior officials', 'Professional occupations', 'Associate professional occupations',
  'Administrative and secretarial occupations', 'Skilled trades occupations', 'Caring, leisure and other service occupations',
  'Sales and customer service occupations', 'Process, plant and machine operatives', 'Elementary occupations'];

/** Table 14 rows: 'All employees', then for each SOC 2020 major group 2 sub-majors x 2 minors x 3 units (names generated). */
export function occupationRows() {
  const rows = [{ name: 'All employees', code: '' }];
  MAJOR_NAMES.forEach((name, i) => {
    const m = String(i + 1);
    rows.push({ name, code: m });
    for (let s = 1; s <= 2; s++) {
      rows.push({ name: `Generated sub-major group ${m}${s}`, code: `${m}${s}` });
      for (let n = 1; n <= 2; n++) {
        rows.push({ name: `Generated minor group ${m}${s}${n}`, code: `${m}${s}${n}` });
        for (let u = 1; u <= 3; u++) rows.push({ name: `Generated unit group ${m}${s}${n}${u}`, code: `${m}${s}${n}${u}` });
      }
    }
  });
  return rows;
}

function round(v, dp) {
  const f = 10 ** dp;
  return Math.round(v * f) / f;
}

/** The generated value cells (C..Q) of one row: jobs, median, change, mean, change, p10 ... p90. */
export function rowValues(i, sheet, sub, year) {
  const m = MEASURES[sub];
  const median = round(m.base * SHEET_SCALE[sheet] * (0.8 + ((i * 37) % 41) / 100) * (1 + (year - 2020) * 0.03), m.dp);
  const pct = SHAPE.map((k) => round(median * k, m.dp));
  // deterministic suppression: p90 on every third row, p10 on every seventh, the median on every 29th
  if (i % 3 === 2) pct[9] = 'x';
  if (i % 7 === 5) pct[0] = 'x';
  const med = i % 29 === 17 ? 'x' : median;
  const jobs = 5 + ((i * 53) % 400);
  const change = i % 11 === 0 ? null : round(((i % 13) - 4) / 2, 1);
  return [jobs, med, change, round(median * 1.22, m.dp), change === null ? null : round(change + 0.4, 1), ...pct];
}

function dataSheet(rows, table, sub, year, sheet) {
  const title = `Table ${table}.${sub}a   ${MEASURES[sub].title} (£) - For ${SHEET_WORD[sheet]} employee jobsa: United Kingdom, ${year}`;
  const aoa = [
    [title],
    ['GENERATED by test/earnings/ashe-gen.mjs in the ONS layout: not ONS data'],
    [null, null, 'Number', null, 'Annual', null, 'Annual'],
    [null, null, 'of jobsb', null, 'percentage', null, 'percentage', 'Percentiles'],
    ['Description', 'Code', '(thousand)', 'Median', 'change', 'Mean', 'change', 10, 20, 25, 30, 40, 60, 70, 75, 80, 90],
  ];
  rows.forEach((r, i) => aoa.push([r.name, r.code, ...rowValues(i, sheet, sub, year)]));
  aoa.push(['Not Classified', '', ...rowValues(rows.length, sheet, sub, year)]);
  aoa.push(['a  Employees on adult rates who have been in the same job for more than a year.']);
  aoa.push(['Source: Annual Survey of Hours and Earnings, Office for National Statistics.']);
  const ws = XLSX.utils.aoa_to_sheet(aoa);
  const key = [['Key', 'Statistical robustness'], ['CV <= 5%', 'Estimates are considered precise '], ['x = CV > 20%', 'Estimates are considered unreliable for practical purposes'], ['.. = disclosive', null], [': = not applicable', null]];
  XLSX.utils.sheet_add_aoa(ws, key, { origin: 'S7' });
  return ws;
}

/** One ASHE workbook (Buffer): `rows` = [{name, code}] (names may be indented). `cv`: a 'b' (CV) table instead. */
export function asheWorkbook({ rows, table, sub, year, bookType = 'biff8', cv = false }) {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['Guide to results from the Annual Survey of Hours and Earnings (ASHE)'], ['GENERATED by test/earnings/ashe-gen.mjs: not ONS data']]), 'Notes');
  for (const s of SHEETS) {
    const ws = dataSheet(rows, table, sub, year, s);
    if (cv) ws.A1 = { t: 's', v: `Table ${table}.${sub}b   ${MEASURES[sub].title} - Coefficients of variation ${year}` };
    XLSX.utils.book_append_sheet(wb, ws, s);
  }
  return Buffer.from(XLSX.write(wb, { type: 'buffer', bookType }));
}

/**
 * An ONS-style zip of one table and year: x.1a, x.5a and x.7a (plus the 7.7b CV table, which a sync must
 * skip). `.xls` up to 2020, `.xlsx` from 2021 (as ONS moved), unless `ext` says otherwise.
 */
export function asheZip({ rows, table, year, provisional, ext, subs = ['1', '5', '7'], mutate }) {
  const e = ext ?? (year <= 2020 ? 'xls' : 'xlsx');
  const bookType = e === 'xls' ? 'biff8' : 'xlsx';
  const files = {};
  for (const sub of subs) {
    files[memberName(table, sub, year, provisional, e)] = asheWorkbook({ rows: mutate ? mutate(rows, sub) : rows, table, sub, year, bookType });
  }
  files[memberName(table, '7', year, provisional, e).replace('.7a', '.7b').replace('Gross', 'Gross CV')] = asheWorkbook({ rows: rows.slice(0, 3), table, sub: '7', year, bookType, cv: true });
  return Buffer.from(zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, new Uint8Array(v)]))));
}

/**
 * The ONS dataset page of a table linking the given zips: `file` the way ons.gov.uk does
 * (`/file?uri=/<page>/2021provisional/<zip>`), `path` relative to the page (`<page>/2021provisional/<zip>`,
 * for a test server that routes by path only).
 */
export function datasetPage(pagePath, zips, style = 'file') {
  const links = zips.map((z) => {
    const m = /(\d{4})(provisional|revised)/.exec(z);
    const href = style === 'file' ? `/file?uri=/${pagePath}/${m[1]}${m[2]}/${z}` : `${pagePath.split('/').pop()}/${m[1]}${m[2]}/${z}`;
    return `<a href="${href}">${z}</a>`;
  });
  return `<!DOCTYPE html><html><body><h1>ASHE</h1><ul>${links.map((l) => `<li>${l}</li>`).join('')}</ul></body></html>`;
}
