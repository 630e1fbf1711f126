import { describe, expect, it } from 'vitest';
import { transactionsFromCsv } from '../../../src/domains/tax/vat-return/handler.js';
import { parseCsv } from '../../../src/domains/tax/vat-return/csv.js';
import { Q3_2026, standardCompany, vatReturn } from './helpers.js';

describe('transactionsFromCsv', () => {
  it('a column named __proto__, constructor or prototype is 400 bad_request (a __proto__ column once vanished silently)', () => {
    for (const col of ['__proto__', 'Constructor', 'prototype']) {
      const text = `id,date,${col}\nT1,2026-07-01,x\n`;
      expect(() => transactionsFromCsv(text)).toThrow(expect.objectContaining({ status: 400, code: 'bad_request' }));
      expect(() => transactionsFromCsv(text)).toThrow(new RegExp(`^column '${col.toLowerCase()}' is refused: '${col.toLowerCase()}' is not allowed as a name`));
    }
  });

  it('parses quoted fields with commas, doubled quotes and newlines, CRLF and a BOM', () => {
    const text = '\uFEFFa,b,c\r\n"x, y","say ""hi""","line1\nline2"\r\n1,,3\r\n';
    expect(parseCsv(text)).toEqual([
      ['a', 'b', 'c'],
      ['x, y', 'say "hi"', 'line1\nline2'],
      ['1', '', '3'],
    ]);
  });

  it('turns a bookkeeping export into transactions: numbers, booleans, text ids, empty cells left out', () => {
    const csv = [
      'ID,Date,Type,Net Amount,VAT Amount,Gross Amount,VAT Rate,VAT Rate Percentage,Supply Type,Is Capital Asset,Description',
      '00017,2026-07-03,sale,"1,000.00",200.00,£1200.00,standard,20,domestic,no,"Consulting, July"',
      '00018,2026-07-04,credit_note_issued,(250.00),-50,-300,standard,20,domestic,false,',
      '00019,2026-07-05,purchase,2000,400,2400,standard,20,domestic,TRUE,"Laptop ""Pro"""',
      ',,,,,,,,,,',
    ].join('\n');
    expect(transactionsFromCsv(csv)).toEqual([
      { id: '00017', date: '2026-07-03', type: 'sale', net_amount: 1000, vat_amount: 200, gross_amount: 1200, vat_rate: 'standard', vat_rate_percentage: 20, supply_type: 'domestic', is_capital_asset: false, description: 'Consulting, July' },
      { id: '00018', date: '2026-07-04', type: 'credit_note_issued', net_amount: -250, vat_amount: -50, gross_amount: -300, vat_rate: 'standard', vat_rate_percentage: 20, supply_type: 'domestic', is_capital_asset: false },
      { id: '00019', date: '2026-07-05', type: 'purchase', net_amount: 2000, vat_amount: 400, gross_amount: 2400, vat_rate: 'standard', vat_rate_percentage: 20, supply_type: 'domestic', is_capital_asset: true, description: 'Laptop "Pro"' },
    ]);
  });

  it('leaves unparseable numbers as text so validation reports them', async () => {
    const rows = transactionsFromCsv('id,date,type,net_amount,vat_amount,vat_rate\nA,2026-07-01,sale,ten,2,standard\n');
    expect(rows).toEqual([{ id: 'A', date: '2026-07-01', type: 'sale', net_amount: 'ten', vat_amount: 2, vat_rate: 'standard' }]);
    const r: any = await vatReturn({ company: standardCompany(), period: Q3_2026, transactions: rows }, 'none');
    expect(r.status).toBe(400);
    expect(r.envelope.error.details).toEqual([expect.objectContaining({ field: 'transactions[0].net_amount', code: 'INVALID_AMOUNT' })]);
  });

  it('an unclosed quote is a syntax error', () => {
    expect(() => transactionsFromCsv('id,date\n"A,2026-07-01\n')).toThrow(SyntaxError);
  });

  it('feeds the return calculation end to end', async () => {
    const csv = 'id,date,type,net_amount,vat_amount,gross_amount,vat_rate,supply_type\nS1,2026-07-01,sale,100,20,120,standard,domestic\nP1,2026-07-02,purchase,50,10,60,standard,domestic\n';
    const r: any = await vatReturn({ company: standardCompany(), period: Q3_2026, transactions: transactionsFromCsv(csv) }, 'none');
    expect(r.status).toBe(200);
    expect(r.envelope.data.boxes.box_5.value).toBe(10);
  });
});
