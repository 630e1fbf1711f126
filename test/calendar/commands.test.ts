/** calendar's own command tests (moved from test/cli/commands.test.ts): exact output in terminal and piped modes, api calls, a table at 50 columns. */
import { describe, expect, it } from 'vitest';
import { runCli, json } from '../support/cli.js';

const ESC = '\u001b[';
const META_GOVUK = {
  api_version: 'v1',
  licence: 'Open Government Licence v3.0',
  source: 'GOV.UK',
  source_url: 'https://www.gov.uk/bank-holidays',
};

describe('output modes', () => {
  it('piped: prints the envelope exactly, as one JSON line', async () => {
    const r = await runCli(['calendar', 'regions']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `${JSON.stringify({
        data: {
          regions: [
            { slug: 'england_and_wales', name: 'England and Wales' },
            { slug: 'scotland', name: 'Scotland' },
            { slug: 'northern_ireland', name: 'Northern Ireland' },
          ],
        },
        meta: META_GOVUK,
      })}\n`,
    );
    expect(r.stderr).toBe('');
  });

  it('terminal: a table with a footer, bold headers only when colour is on', async () => {
    const r = await runCli(['calendar', 'regions'], { tty: true });
    expect(r.stdout).toBe(
      [
        '┌───────────────────┬───────────────────┐',
        `│ ${ESC}1mslug${ESC}22m              │ ${ESC}1mname${ESC}22m              │`,
        '│ england_and_wales │ England and Wales │',
        '│ scotland          │ Scotland          │',
        '│ northern_ireland  │ Northern Ireland  │',
        '└───────────────────┴───────────────────┘',
        `${ESC}2m3 records · source: local${ESC}22m`,
        '',
      ].join('\n'),
    );
    const plain = await runCli(['calendar', 'regions', '--no-color'], { tty: true });
    expect(plain.stdout).not.toContain(ESC);
    const noColor = await runCli(['calendar', 'regions'], { tty: true, env: { NO_COLOR: '1' } });
    expect(noColor.stdout).not.toContain(ESC);
    expect(noColor.stdout.split('\n').at(-2)).toBe('3 records · source: local');
  });

  it('ndjson: one record a line; csv with --fields', async () => {
    const nd = await runCli(['calendar', 'regions', '--format', 'ndjson']);
    expect(nd.stdout.trim().split('\n').map((l) => JSON.parse(l).slug)).toEqual(['england_and_wales', 'scotland', 'northern_ireland']);
    const csv = await runCli(['calendar', 'bank-holidays', '2026', '--region', 'scotland', '--format', 'csv', '--fields', 'date,title']);
    expect(csv.stdout.split('\r\n').slice(0, 4)).toEqual(['date,title', '2026-01-01,New Year’s Day', '2026-01-02,2nd January', '2026-04-03,Good Friday']);
  });

  it('--fields projects records inside the envelope', async () => {
    const r = json(await runCli(['calendar', 'regions', '--fields', 'slug']));
    expect(r.data.regions).toEqual([{ slug: 'england_and_wales' }, { slug: 'scotland' }, { slug: 'northern_ireland' }]);
    expect(r.meta).toEqual(META_GOVUK);
  });
});

describe('calendar: validation and api', () => {
  it('a malformed year is invalid_year, exit 2', async () => {
    const yr = await runCli(['calendar', 'bank-holidays', '20x6']);
    expect([yr.code, json(yr).error.code]).toEqual([2, 'invalid_year']);
  });

  it('prints the envelope of a local call, -F typed fields and query strings', async () => {
    const a = json(await runCli(['api', 'GET', '/v1/calendar/bank-holidays?region=northern_ireland']));
    expect(new Set(a.data.bank_holidays.map((h: { region: string }) => h.region))).toEqual(new Set(['northern_ireland']));
    const b = json(await runCli(['api', 'GET', 'calendar/bank-holidays', '-F', 'region=scotland']));
    expect(b.data.bank_holidays[0]).toEqual({ date: '2026-01-01', title: 'New Year’s Day', region: 'scotland', notes: null, bunting: true });
  });
});

describe('calendar: tables fit the terminal', () => {
  it('bank holidays at 50 columns', async () => {
    const r = await runCli(['calendar', 'bank-holidays', '--no-color'], { tty: true, columns: 50 });
    const widths = r.stdout.split('\n').map((l) => [...l].length);
    expect(Math.max(...widths)).toBeLessThanOrEqual(50);
  });
});
