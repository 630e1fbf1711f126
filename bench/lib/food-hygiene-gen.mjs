// A generated national set of FSA food hygiene files in the real format (GENERATED, not upstream data):
// `files` per-authority files FHRS{code}en-GB.xml, each one line with no newline like the real ones, the
// element order of the real files (test/fixtures/food-hygiene), FHRS and FHIS authorities (codes 760-791
// are Scottish), empty <Scores /> and <Geocode /> on some rows, postcodes in AddressLine3 on some, and an
// authorities list (API v2 fields) beside them. Deterministic (seeded).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TYPES = [[1, 'Restaurant/Cafe/Canteen'], [7844, 'Takeaway/sandwich shop'], [4613, 'Retailers - other'], [5, 'Hospitals/Childcare/Caring Premises'], [7843, 'Pub/bar/nightclub'], [7846, 'Mobile caterer'], [1328, 'School/college/university']];
const FHRS = ['5', '5', '5', '5', '4', '4', '3', '2', '1', '0', 'Exempt', 'AwaitingInspection'];
const FHIS = ['Pass', 'Pass', 'Pass', 'Pass and Eat Safe', 'Improvement Required', 'Exempt', 'Awaiting Inspection'];
const LETTERS = 'ABDEFGHJLNPQRSTUWXYZ';

/** Writes the set into `dir`; returns { files, establishments, bytes }. */
export function generateFoodHygiene(dir, { files = 400, establishments = 500_000, seed = 22 } = {}) {
  mkdirSync(dir, { recursive: true });
  const r = rng(seed);
  const per = Math.ceil(establishments / files);
  let id = 100000;
  let total = 0;
  let bytes = 0;
  const list = [];
  for (let f = 0; f < files; f++) {
    const code = f < 32 ? 760 + f : 100 + f; // 32 Scottish (FHIS) authorities, the rest FHRS
    const fhis = code >= 760 && code <= 791;
    const n = Math.min(per, establishments - total);
    const name = `Authority ${code}`;
    const lat0 = 50.2 + r() * 8;
    const lng0 = -5.5 + r() * 7;
    const area = LETTERS[f % 20] + LETTERS[(f * 7) % 20];
    const parts = [`<?xml version="1.0"?><FHRSEstablishment xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><Header><ExtractDate>2026-11-20</ExtractDate><ItemCount>${n}</ItemCount><ReturnCode>Success</ReturnCode></Header><EstablishmentCollection>`];
    for (let i = 0; i < n; i++) {
      const [typeId, type] = TYPES[Math.floor(r() * TYPES.length)];
      const rating = fhis ? FHIS[Math.floor(r() * FHIS.length)] : FHRS[Math.floor(r() * FHRS.length)];
      const key = `${fhis ? 'fhis' : 'fhrs'}_${rating.toLowerCase().replace(/ /g, '')}_en-GB`;
      const pc = `${area}${1 + (i % 20)} ${i % 10}${LETTERS[i % 20]}${LETTERS[(i * 3) % 20]}`;
      const pcInLine = i % 50 === 0;
      const noGeo = i % 40 === 0;
      const scored = !fhis && /^[0-5]$/.test(rating);
      const date = rating.startsWith('Awaiting') ? '<RatingDate xsi:nil="true" />' : `<RatingDate>20${10 + Math.floor(r() * 16)}-0${1 + Math.floor(r() * 9)}-1${Math.floor(r() * 9)}</RatingDate>`;
      parts.push(
        `<EstablishmentDetail><FHRSID>${id++}</FHRSID><LocalAuthorityBusinessID>PI/${code}/${i}</LocalAuthorityBusinessID>` +
        `<BusinessName>${i % 17 === 0 ? 'Pizza &amp; Pasta' : 'Business'} ${i}</BusinessName><BusinessType>${type}</BusinessType><BusinessTypeID>${typeId}</BusinessTypeID>` +
        `<AddressLine1>${1 + (i % 200)} High Street</AddressLine1><AddressLine2>Town ${code}</AddressLine2>` +
        (pcInLine ? `<AddressLine3>${pc}</AddressLine3>` : `<AddressLine3>County</AddressLine3><PostCode>${pc}</PostCode>`) +
        `<RatingValue>${rating}</RatingValue><RatingKey>${key}</RatingKey>${date}` +
        `<LocalAuthorityCode>${code}</LocalAuthorityCode><LocalAuthorityName>${name}</LocalAuthorityName>` +
        `<LocalAuthorityWebSite>http://www.authority${code}.gov.uk</LocalAuthorityWebSite><LocalAuthorityEmailAddress>food@authority${code}.gov.uk</LocalAuthorityEmailAddress>` +
        (scored ? `<Scores><Hygiene>${5 * Math.floor(r() * 4)}</Hygiene><Structural>${5 * Math.floor(r() * 4)}</Structural><ConfidenceInManagement>${5 * Math.floor(r() * 4)}</ConfidenceInManagement></Scores>` : '<Scores />') +
        `<SchemeType>${fhis ? 'FHIS' : 'FHRS'}</SchemeType><NewRatingPending>${i % 97 === 0 ? 'True' : 'False'}</NewRatingPending>` +
        (noGeo ? '<Geocode />' : `<Geocode><Longitude>${(lng0 + (r() - 0.5) * 0.3).toFixed(14)}</Longitude><Latitude>${(lat0 + (r() - 0.5) * 0.2).toFixed(14)}</Latitude></Geocode>`) +
        '</EstablishmentDetail>',
      );
    }
    parts.push('</EstablishmentCollection></FHRSEstablishment>');
    const text = parts.join('');
    const file = `FHRS${code}en-GB.xml`;
    writeFileSync(join(dir, file), text);
    bytes += Buffer.byteLength(text);
    total += n;
    list.push({ LocalAuthorityIdCode: String(code), Name: name, FileName: file, EstablishmentCount: n, LastPublishedDate: '2026-11-20T00:30:00', SchemeType: fhis ? 2 : 1 });
    if (total >= establishments) break;
  }
  writeFileSync(join(dir, 'authorities.list.json'), JSON.stringify({ authorities: list }));
  return { files: list.length, establishments: total, bytes };
}
