#!/usr/bin/env node
// Writes the GENERATED fixtures of test/fixtures/schools (see its README): run from the repository root,
//   node test/schools/schools-fixtures.mjs
// Inputs are the real excerpts in the same folder (GIAS header, the Leeds management-information rows).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encode1252, giasFields, giasLine, GRADED_HEADER, headerOf, plainLine, rng } from './schools-gen.mjs';

const dir = join(process.cwd(), 'test', 'fixtures', 'schools');
const giasHeader = headerOf(readFileSync(join(dir, 'gias-edubasealldata-ExampleImportFile.csv'), 'latin1'));
const miText = readFileSync(join(dir, 'ofsted-mi-latest-inspections-28-Feb-2026-leeds-first-40.csv'), 'utf8');
const miHeader = headerOf(miText);

// Minimal CSV parse of the MI excerpt (quoted fields with commas occur: "North East, Yorkshire and the Humber").
function parseLine(line) {
  const out = [];
  let cur = '';
  let q = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (q) {
      if (c === '"' && line[i + 1] === '"') { cur += '"'; i++; } else if (c === '"') q = false; else cur += c;
    } else if (c === '"') q = true;
    else if (c === ',') { out.push(cur); cur = ''; } else cur += c;
  }
  out.push(cur);
  return out;
}
const miRows = miText.split(/\r?\n/).slice(1).filter(Boolean).map((l) => Object.fromEntries(parseLine(l).map((v, i) => [miHeader[i], v])));

// 1. GIAS rows for the 40 Leeds URNs (names, postcodes from the MI rows; grid references generated around
//    Leeds), and one school with a Windows-1252 name and no inspection.
const r = rng(24);
const lines = [giasHeader.map((h) => `"${h}"`).join(',')];
for (const m of miRows) {
  lines.push(giasLine(giasHeader, giasFields(Number(m.URN), r, {
    'LA (code)': '383', 'LA (name)': 'Leeds', EstablishmentName: m['School name'], 'EstablishmentStatus (code)': '1', 'EstablishmentStatus (name)': 'Open',
    'PhaseOfEducation (code)': '2', 'PhaseOfEducation (name)': 'Primary', 'TypeOfEstablishment (name)': m['Type of education'], CloseDate: '',
    Postcode: m.Postcode, Town: 'Leeds', Easting: String(420000 + Math.floor(r() * 20000)), Northing: String(425000 + Math.floor(r() * 20000)),
  })));
}
lines.push(giasLine(giasHeader, giasFields(149901, r, {
  'LA (code)': '383', 'LA (name)': 'Leeds', EstablishmentName: 'St Thérèse’s Catholic Primary School – “Généré”', 'EstablishmentStatus (code)': '1',
  'EstablishmentStatus (name)': 'Open', 'PhaseOfEducation (code)': '2', 'PhaseOfEducation (name)': 'Primary', CloseDate: '', Postcode: 'LS6 9ZZ',
  Town: 'Leeds', Easting: '428000', Northing: '436000',
})));
writeFileSync(join(dir, 'GENERATED-gias-leeds-rows.csv'), encode1252(`${lines.join('\r\n')}\r\n`));

// 2. The graded (pre-September 2024) layout: hand-chosen outcomes, one per case the handlers distinguish.
const base = (urn, name) => ({
  'Web link': `http://www.ofsted.gov.uk/inspection-reports/find-inspection-report/provider/ELS/${urn}`, URN: String(urn), LAESTAB: '3830000',
  'School name': name, 'Ofsted phase': 'Primary', 'Type of education': 'Community School', 'Ofsted region': 'North East, Yorkshire and the Humber',
  Region: 'Yorkshire and the Humber', 'Local authority': 'Leeds', Postcode: 'LS1 1AA',
});
const graded = [
  // graded, outstanding, with a previous graded inspection (good)
  { ...base(107809, 'Guiseley Primary School'), 'Inspection number of latest graded inspection': '10210001', 'Inspection type': 'S5 Inspection',
    'Inspection start date': '14/03/2023', 'Publication date': '20/04/2023', 'Overall effectiveness': '1', 'Category of concern': '',
    'Quality of education': '1', 'Behaviour and attitudes': '1', 'Personal development': '2', 'Effectiveness of leadership and management': '1',
    'Safeguarding is effective?': 'Yes', 'Early years provision (where applicable)': '2', 'Sixth form provision (where applicable)': '9',
    'Previous graded inspection number': '10010001', 'Previous inspection start date': '10/05/2018', 'Previous publication date': '12/06/2018',
    'Previous graded inspection overall effectiveness': '2', 'Previous quality of education': 'NULL', 'Previous safeguarding is effective?': 'Yes' },
  // graded, inadequate, special measures
  { ...base(107810, 'Rawdon Littlemoor Primary School'), 'Inspection number of latest graded inspection': '10220002', 'Inspection type': 'S5 Inspection',
    'Inspection start date': '01/02/2024', 'Publication date': '05/03/2024', 'Overall effectiveness': '4', 'Category of concern': 'SM',
    'Quality of education': '4', 'Behaviour and attitudes': '3', 'Personal development': '3', 'Effectiveness of leadership and management': '4',
    'Safeguarding is effective?': 'No', 'Early years provision (where applicable)': 'NULL', 'Sixth form provision (where applicable)': '' },
  // graded after September 2024: no overall judgement ("Not judged")
  { ...base(107813, 'Scholes (Elmet) Primary School'), 'Inspection number of latest graded inspection': '10340003', 'Inspection type': 'S5 Inspection',
    'Inspection start date': '08/10/2024', 'Publication date': '20/11/2024', 'Overall effectiveness': 'Not judged', 'Quality of education': '2',
    'Behaviour and attitudes': '2', 'Personal development': '1', 'Effectiveness of leadership and management': '2', 'Safeguarding is effective?': 'Yes' },
  // ungraded after a graded inspection: the ungraded one is the latest
  { ...base(107817, 'Horsforth Featherbank Primary School'), 'Inspection number of latest graded inspection': '10150004', 'Inspection type': 'S5 Inspection',
    'Inspection start date': '03/03/2020', 'Publication date': '01/04/2020', 'Overall effectiveness': '2', 'Quality of education': '2',
    'Latest ungraded inspection number since last graded inspection': '10300004', 'Date of latest ungraded inspection': '11/06/2024',
    'Ungraded inspection publication date': '15/07/2024', 'Ungraded inspection overall outcome': 'School remains Good' },
  // the real-register school (London): graded, good
  { ...base(100000, 'The Aldgate School'), 'Local authority': 'City of London', Region: 'London', 'Ofsted region': 'London',
    'Inspection number of latest graded inspection': '10230005', 'Inspection type': 'S5 Inspection', 'Inspection start date': '20/06/2023',
    'Publication date': '25/07/2023', 'Overall effectiveness': '2', 'Quality of education': '2', 'Behaviour and attitudes': '1',
    'Personal development': '1', 'Effectiveness of leadership and management': '2', 'Safeguarding is effective?': 'Yes',
    'Early years provision (where applicable)': '2' },
];
const gl = [plainLine(GRADED_HEADER, Object.fromEntries(GRADED_HEADER.map((h) => [h, h])))];
for (const g of graded) gl.push(plainLine(GRADED_HEADER, g));
writeFileSync(join(dir, 'GENERATED-ofsted-mi-graded-layout.csv'), encode1252(`${gl.join('\r\n')}\r\n`));
console.log('wrote GENERATED-gias-leeds-rows.csv and GENERATED-ofsted-mi-graded-layout.csv');
