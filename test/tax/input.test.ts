/**
 * tax's own cases (moved from test/cli/input.test.ts).
 * Input the CLI must refuse rather than guess (issue 10 item 8): decimal commas, ignored or silently
 * accepted options, user errors that were reported as bugs, flag names in messages.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, runCli, type RunResult } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'publicdata-input-'));
const code = (r: RunResult) => [r.code, json(r).error?.code];

describe('tax amounts: a comma only as a thousands separator', () => {
  it('45,000 and £1,234.50 are amounts; 45,00 and 12,50 are bad_request, exit 2', async () => {
    expect(json(await runCli(['tax', 'take-home', '45,000'])).data.gross_income).toBe(45000);
    // 20% VAT on 1234.50 = 246.90
    expect(json(await runCli(['tax', 'vat', '£1,234.50'])).data.vat_amount).toBe(246.9);
    for (const args of [['tax', 'take-home', '45,00'], ['tax', 'vat', '12,50'], ['tax', 'compare', '45,00', '50000'], ['tax', 'income-tax', '1,2345']]) {
      const r = await runCli(args);
      expect(code(r), args.join(' ')).toEqual([2, 'bad_request']);
      expect(json(r).error.message).toMatch(/thousands separator/);
    }
  });

  it('--sweep takes thousands commas but not a decimal comma', async () => {
    expect(json(await runCli(['tax', 'take-home', '--sweep', '20,000:30,000:10,000'])).data).toHaveLength(2);
    expect(code(await runCli(['tax', 'take-home', '--sweep', '2,0000:30000:10000']))).toEqual([2, 'usage_error']);
  });

  it('a VAT-return CSV cell "10,00" is bad_request, not £1,000; "1,000.00" is £1,000', async () => {
    const head = 'id,date,type,net_amount,vat_amount,gross_amount,vat_rate,supply_type';
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, `${head}\nS1,2026-07-01,sale,"10,00","2,00","12,00",standard,domestic\n`);
    const period = ['--period', '2026-07-01:2026-09-30', '--vrn', 'GB123456789'];
    const r = await runCli(['tax', 'vat-return', '--csv', bad, ...period]);
    expect(code(r)).toEqual([2, 'bad_request']);
    expect(json(r).error.message).toContain("row 2, column net_amount: '10,00'");
    const good = join(dir, 'good.csv');
    writeFileSync(good, `${head}\nS1,2026-07-01,sale,"1,000.00",200.00,"1,200.00",standard,domestic\n`);
    const ok = json(await runCli(['tax', 'vat-return', '--csv', good, ...period]));
    expect(ok.data.boxes.box_6.value).toBe(1000);
    expect(ok.data.boxes.box_1.value).toBe(200);
  });
});

describe('tax: errors in the words of the command line', () => {
  it('friendly commands name their flags and arguments, not the API fields', async () => {
    const r = await runCli(['tax', 'cgt', '30000']);
    expect(code(r)).toEqual([2, 'bad_request']);
    expect(json(r).error.message).toBe('Missing required option --asset.');
    expect(json(await runCli(['tax', 'take-home', 'abc'])).error.message).toBe('Invalid argument <gross_income>: must be an integer.');
    // `api` speaks the API's language.
    expect(json(await runCli(['api', 'POST', '/v1/tax/capital-gains/calculate', '-F', 'gain=30000'])).error.message).toBe("Missing required field 'asset_type'.");
  });

  it('a well-formed year outside the data says which years are covered', async () => {
    const r = await runCli(['tax', 'income-tax', '50000', '--year', '2030-31']);
    expect(code(r)).toEqual([1, 'invalid_tax_year']);
    expect(json(r).error.message).toMatch(/^Tax year '2030-31' not found: the data covers \d{4}-\d{2} to 2026-27\.$/);
    expect(json(await runCli(['tax', 'income-tax', '50000', '--year', '2030'])).error.message).toMatch(/Use the format YYYY-YY/);
  });
});

describe('tax: options that were silently accepted or ignored are usage errors', () => {
  it('take-home with both a gross income and --sweep, or --chart without --sweep', async () => {
    expect(code(await runCli(['tax', 'take-home', '45000', '--sweep', '20000:30000:5000']))).toEqual([2, 'usage_error']);
    expect(code(await runCli(['tax', 'take-home', '45000', '--chart']))).toEqual([2, 'usage_error']);
  });

  it('vat-return: transactions from both --body and --csv; --period/--vrn without --csv', async () => {
    const csv = join(dir, 'q.csv');
    writeFileSync(csv, 'id,date,type,net_amount,vat_amount,gross_amount,vat_rate,supply_type\nS1,2026-07-01,sale,100,20,120,standard,domestic\n');
    const body = join(dir, 'q.json');
    writeFileSync(body, JSON.stringify({ period: { start_date: '2026-07-01', end_date: '2026-09-30' }, transactions: [] }));
    expect(code(await runCli(['tax', 'vat-return', '--csv', csv, '--body', body]))).toEqual([2, 'usage_error']);
    expect(code(await runCli(['tax', 'vat-return', '--body', body, '--period', '2026-07-01:2026-09-30']))).toEqual([2, 'usage_error']);
    // --body with company and period only, transactions from --csv: the documented combination.
    writeFileSync(body, JSON.stringify({ period: { start_date: '2026-07-01', end_date: '2026-09-30' }, company: { vat_registration_number: 'GB123456789', vat_schemes: [{ scheme: 'standard', effective_from: '2020-01-01', effective_to: null }] } }));
    expect(json(await runCli(['tax', 'vat-return', '--csv', csv, '--body', body])).data.boxes.box_1.value).toBe(20);
  });
});
