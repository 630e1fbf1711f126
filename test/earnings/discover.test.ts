/** Finding ASHE editions on an ONS dataset page (links in the ons.gov.uk `/file?uri=` form), and what a later sync still needs. */
import { describe, expect, it } from 'vitest';
import { asheTables } from '../../src/domains/earnings/codes.js';
import { bestEditions, chooseYears, editionOfName, editionsOnPage, statusOf, stillToLoad } from '../../src/domains/earnings/sync/discover.js';
import { datasetPage } from './ashe-gen.mjs';

const t8 = asheTables().tables.find((t) => t.table === '8')!;
const PAGE = `https://www.ons.gov.uk/${t8.page}`;

describe('ASHE discovery', () => {
  it('reads table, year and status from ONS zip names, old and new', () => {
    expect(editionOfName('ashetable82025provisional.zip')).toEqual({ table: '8', year: 2025, status: 'provisional' });
    expect(editionOfName('table142021revised.zip')).toEqual({ table: '14', year: 2021, status: 'revised' });
    expect(editionOfName('table72016.zip')).toEqual({ table: '7', year: 2016, status: 'revised' });
    expect(editionOfName('ashetable8.zip')).toBeUndefined();
    expect(statusOf('x.zip', 'PROV - Home Geography Table 8.7a   Annual pay - Gross 2021.xls')).toBe('provisional');
    expect(statusOf('Home Geography Table 8.7a   Annual pay - Gross 2020.xls')).toBe('revised');
  });

  it('finds the /file?uri= links of its own table only, resolved against ons.gov.uk', () => {
    const html = datasetPage(t8.page, ['ashetable82024provisional.zip', 'ashetable82023revised.zip', 'ashetable82023provisional.zip'])
      + `<a href="/file?uri=%2Femploymentandlabourmarket%2Fpeopleinwork%2Fx%2F2022revised%2Fashetable82022revised.zip">2022</a>`
      + `<a href="/file?uri=/x/2024provisional/ashetable72024provisional.zip">table 7</a>`;
    const found = editionsOnPage(html, PAGE, t8);
    expect(found.map((e) => `${e.year} ${e.status}`)).toEqual(['2024 provisional', '2023 revised', '2023 provisional', '2022 revised']);
    expect(found[0]!.url).toBe(`https://www.ons.gov.uk/file?uri=/${t8.page}/2024provisional/ashetable82024provisional.zip`);
    const best = bestEditions(found);
    expect(best.map((e) => e.name)).toEqual(['ashetable82022revised.zip', 'ashetable82023revised.zip', 'ashetable82024provisional.zip']);
    expect([...chooseYears(found, { from: 2023, to: 2030 })].sort()).toEqual([2023, 2024]);
    expect(chooseYears([...found, ...[2018, 2019, 2020, 2021].map((year) => ({ ...found[0]!, year }))], undefined)).toEqual(new Set([2024, 2023, 2022, 2021, 2020]));
  });

  it('a later sync needs only new years and revisions of provisional ones', () => {
    const best = bestEditions(editionsOnPage(datasetPage(t8.page, ['ashetable82024revised.zip', 'ashetable82025provisional.zip', 'ashetable82023revised.zip']), PAGE, t8));
    const loaded = [
      { ons_table: '8', year: 2023, status: 'revised' as const },
      { ons_table: '8', year: 2024, status: 'provisional' as const },
    ];
    expect(stillToLoad(best, loaded).map((e) => e.name)).toEqual(['ashetable82024revised.zip', 'ashetable82025provisional.zip']);
    expect(stillToLoad(best, [...loaded, { ons_table: '8', year: 2024, status: 'revised' }, { ons_table: '8', year: 2025, status: 'provisional' }])
      .map((e) => e.name)).toEqual([]);
  });
});
