// GENERATED upstream-format files of the schools domain (labelled as generated wherever they are written):
//  - GIAS "all establishment data" rows (the real 135-column header, Windows-1252, GIAS quoting: numbers
//    bare, text quoted, dates dd-mm-yyyy), for the tests (rows for the Leeds URNs of the real Ofsted excerpt)
//    and the bench (a full register);
//  - Ofsted management information in the graded (pre-September 2024) layout: no real file of that layout
//    was found, so its 70 columns are those read by a third-party cleaner of the real files (docs/schools.md);
//  - report-card layout rows (the real 85-column header) for the bench.
// A plain module so that bench/schools.bench.mjs can import it too (types: schools-gen.d.mts).

/** The 70 columns of the graded-layout management information (files up to 2025), in file order. */
export const GRADED_HEADER = [
  'Web link', 'URN', 'LAESTAB', 'School name', 'Ofsted phase', 'Type of education', 'School open date', 'Admissions policy',
  'Sixth form', 'Designated religious character', 'Religious ethos', 'Faith grouping', 'Ofsted region', 'Region', 'Local authority',
  'Parliamentary constituency', 'Postcode', 'The income deprivation affecting children index (IDACI) quintile', 'Total number of pupils',
  'Latest ungraded inspection number since last graded inspection', 'Does the ungraded inspection relate to the URN of the current school?',
  'URN at time of the ungraded inspection', 'LAESTAB at time of the ungraded inspection', 'School name at time of the ungraded inspection',
  'School type at time of the ungraded inspection', 'Number of ungraded inspections since the last graded inspection',
  'Date of latest ungraded inspection', 'Ungraded inspection publication date', 'Did the latest ungraded inspection convert to a graded inspection?',
  'Ungraded inspection overall outcome', 'Number of monitoring and urgent inspections since last graded inspection',
  'Inspection number of latest graded inspection', 'Inspection type', 'Inspection type grouping', 'Event type grouping',
  'Inspection start date', 'Inspection end date', 'Publication date', 'Does the latest graded inspection relate to the URN of the current school?',
  'URN at time of latest graded inspection', 'LAESTAB at time of latest graded inspection', 'School name at time of latest graded inspection',
  'School type at time of latest graded inspection', 'Overall effectiveness', 'Category of concern', 'Quality of education',
  'Behaviour and attitudes', 'Personal development', 'Effectiveness of leadership and management', 'Safeguarding is effective?',
  'Early years provision (where applicable)', 'Sixth form provision (where applicable)', 'Previous graded inspection number',
  'Previous inspection start date', 'Previous inspection end date', 'Previous publication date',
  'Does the previous graded inspection relate to the URN of the current school?', 'URN at time of previous graded inspection',
  'LAESTAB at time of previous graded inspection', 'School name at time of previous graded inspection',
  'School type at time of previous graded inspection', 'Previous graded inspection overall effectiveness', 'Previous category of concern',
  'Previous quality of education', 'Previous behaviour and attitudes', 'Previous personal development',
  'Previous effectiveness of leadership and management', 'Previous safeguarding is effective?',
  'Previous early years provision (where applicable)', 'Previous sixth form provision (where applicable)',
];

/** A CSV header line's fields (plain or double-quoted; no commas inside header names). */
export function headerOf(text) {
  return text.split(/\r?\n/)[0].replace(/^\uFEFF/, '').split(',').map((h) => h.replace(/^"|"$/g, ''));
}

const quote = (v) => `"${String(v).replace(/"/g, '""')}"`;
const BARE = new Set(['URN', 'StatutoryLowAge', 'StatutoryHighAge', 'SchoolCapacity', 'NumberOfPupils', 'Easting', 'Northing']);

/** One GIAS row in GIAS's quoting: `fields` by header name, every other column blank. */
export function giasLine(header, fields) {
  return header.map((h) => {
    const v = fields[h] ?? '';
    return BARE.has(h) && v !== '' ? String(v) : quote(v);
  }).join(',');
}

/** One CSV row with minimal quoting (as the management-information excerpt has it). */
export function plainLine(header, fields, missing = 'NULL') {
  return header.map((h) => {
    const v = fields[h] ?? missing;
    return /[",\r\n]/.test(v) ? quote(v) : v;
  }).join(',');
}

// Windows-1252 bytes 0x80-0x9F (WHATWG index-windows-1252): the reverse map for encoding.
const C1 = [0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178];
const REVERSE = new Map(C1.map((cp, i) => [cp, 0x80 + i]));

/** Text as Windows-1252 bytes (throws on a character Windows-1252 lacks). */
export function encode1252(text) {
  const out = Buffer.alloc(text.length);
  let n = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0);
    const b = cp < 0x80 || (cp >= 0xa0 && cp <= 0xff) ? cp : REVERSE.get(cp);
    if (b === undefined) throw new Error(`not in Windows-1252: U+${cp.toString(16)}`);
    out[n++] = b;
  }
  return out.subarray(0, n);
}

/** A small deterministic generator (mulberry32). */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PHASES = [['1', 'Nursery'], ['2', 'Primary'], ['2', 'Primary'], ['2', 'Primary'], ['4', 'Secondary'], ['7', 'All-through'], ['0', 'Not applicable']];
const STATUSES = [['1', 'Open'], ['1', 'Open'], ['1', 'Open'], ['2', 'Closed'], ['3', 'Open, but proposed to close'], ['4', 'Proposed to open']];
const dmy = (d, sep) => `${String(d.getUTCDate()).padStart(2, '0')}${sep}${String(d.getUTCMonth() + 1).padStart(2, '0')}${sep}${d.getUTCFullYear()}`;

/** GIAS fields of a generated school (URN `urn`), optionally overridden. */
export function giasFields(urn, r, over = {}) {
  const [phaseCode, phase] = PHASES[Math.floor(r() * PHASES.length)];
  const [statusCode, status] = STATUSES[Math.floor(r() * STATUSES.length)];
  const open = new Date(Date.UTC(1950 + Math.floor(r() * 70), Math.floor(r() * 12), 1 + Math.floor(r() * 28)));
  return {
    URN: String(urn), 'LA (code)': String(201 + Math.floor(r() * 680)), 'LA (name)': 'Generated Borough',
    EstablishmentNumber: String(1000 + Math.floor(r() * 8999)), EstablishmentName: `Generated School ${urn}`,
    'TypeOfEstablishment (code)': '01', 'TypeOfEstablishment (name)': 'Community school', 'EstablishmentTypeGroup (code)': '4',
    'EstablishmentTypeGroup (name)': 'Local authority maintained schools', 'EstablishmentStatus (code)': statusCode, 'EstablishmentStatus (name)': status,
    OpenDate: r() < 0.5 ? dmy(open, '-') : '', CloseDate: statusCode === '2' ? dmy(new Date(open.getTime() + 3e11), '-') : '',
    'PhaseOfEducation (code)': phaseCode, 'PhaseOfEducation (name)': phase, StatutoryLowAge: '4', StatutoryHighAge: '11', 'Gender (name)': 'Mixed',
    'ReligiousCharacter (name)': 'Does not apply', 'AdmissionsPolicy (name)': 'Not applicable', SchoolCapacity: String(100 + Math.floor(r() * 1500)),
    NumberOfPupils: String(50 + Math.floor(r() * 1500)), Street: `${1 + Math.floor(r() * 200)} Generated Road`, Town: 'Generated Town',
    Postcode: `LS${1 + Math.floor(r() * 29)} ${Math.floor(r() * 9)}AB`, 'GOR (code)': 'D', 'GOR (name)': 'Yorkshire and the Humber',
    'GSSLACode (name)': 'E08000035', Easting: String(Math.floor(150_000 + r() * 500_000)), Northing: String(Math.floor(50_000 + r() * 900_000)),
    LastChangedDate: '14-01-2026', ...over,
  };
}

/** A full generated register: the header line and `n` rows (URNs from 100001), as one string (encode it with encode1252). */
export function generatedRegister(header, n, seed = 1) {
  const r = rng(seed);
  const lines = [header.map(quote).join(',')];
  for (let i = 0; i < n; i++) lines.push(giasLine(header, giasFields(100_001 + i, r)));
  return `${lines.join('\r\n')}\r\n`;
}

const RC_GRADES = ['Expected standard', 'Needs attention', 'Strong standard', 'Expected standard', 'Exceptional', 'Urgent improvement'];

/** Report-card layout rows for the URNs 100001.. (a share inspected under each framework), with the real header. */
export function generatedReportCard(header, n, seed = 2) {
  const r = rng(seed);
  const lines = [plainLine(header, Object.fromEntries(header.map((h) => [h, h])))];
  for (let i = 0; i < n; i++) {
    const urn = String(100_001 + i * 2);
    const f = { 'Web Link (opens in new window)': `http://www.ofsted.gov.uk/inspection-reports/find-inspection-report/provider/ELS/${urn}`, URN: urn,
      'School name': `Generated School ${urn}`, 'Ofsted phase': 'Primary', 'Local authority': 'Generated Borough', Region: 'Yorkshire and the Humber',
      'Ofsted region': 'North East, Yorkshire and the Humber', Postcode: 'LS1 1AA' };
    const kind = r();
    const day = new Date(Date.UTC(2019 + Math.floor(r() * 6), Math.floor(r() * 12), 1 + Math.floor(r() * 28)));
    if (kind < 0.15) {
      Object.assign(f, { 'Inspection number of latest full inspection': String(10_400_000 + i), 'Inspection start date': '06/01/2026', 'Publication date': '10/02/2026',
        'Safeguarding standards': 'Met' });
      for (const h of ['Inclusion', 'Curriculum and teaching', 'Achievement', 'Attendance and behaviour', 'Personal development and wellbeing', 'Leadership and governance']) {
        f[h] = RC_GRADES[Math.floor(r() * RC_GRADES.length)];
      }
    } else if (kind < 0.7) {
      Object.assign(f, { 'Inspection number of latest OEIF graded inspection': String(10_100_000 + i), 'Inspection start date of latest OEIF graded inspection': dmy(day, '/'),
        'Latest OEIF overall effectiveness': String(1 + Math.floor(r() * 4)), 'Latest OEIF quality of education': String(1 + Math.floor(r() * 4)) });
    } else {
      Object.assign(f, { 'Latest ungraded inspection number': String(10_200_000 + i), 'Date of latest ungraded inspection': dmy(day, '/'),
        'Ungraded inspection overall outcome': 'School remains Good' });
    }
    lines.push(plainLine(header, f));
  }
  return `${lines.join('\r\n')}\r\n`;
}
