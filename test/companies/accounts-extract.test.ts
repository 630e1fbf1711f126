/**
 * The accounts extractor on every real document in test/fixtures/companies/accounts/ (4
 * members saved whole, and the 9 members of the real daily-zip subset), with the figures worked out by
 * hand from each document (the `ix:nonFraction` text, its `sign`/`scale`, and the period of the context
 * it references; the fact is cited beside each figure), plus one labelled synthetic document per quirk
 * the real ones lack.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  extractDocument, parseDisplayed, parseLooseDate, parseMemberName, toPence, type Filing, type PeriodRow,
} from '../../src/domains/companies/sync/accounts/extract.js';
import { accountsDocument, memberName } from './accounts-gen.mjs';

const DIR = join(import.meta.dirname, '..', 'fixtures', 'companies', 'accounts');
const zipMembers = unzipSync(readFileSync(join(DIR, 'Accounts_Bulk_Data-2023-03-02.zip')));

function doc(name: string): Filing {
  const bytes = zipMembers[name] ?? readFileSync(join(DIR, name));
  const r = extractDocument(bytes, name);
  if (!r.ok) throw new Error(`${name}: ${r.reason}`);
  return r.filing;
}

/** A period row's money figures in pounds (numbers are whole pounds in every real document). */
type Pounds = Partial<Record<'revenue' | 'profit_before_tax' | 'fixed_assets' | 'current_assets' | 'current_liabilities' | 'net_current_assets' | 'total_assets' | 'cash' | 'net_assets', number | null>> & {
  employees?: number | null;
};

function pounds(p: PeriodRow, keys: Array<keyof Pounds>): Pounds {
  const o: Pounds = {};
  for (const k of keys) {
    const v = p[k as keyof PeriodRow];
    (o as Record<string, unknown>)[k] = k === 'employees' ? v : v === null ? null : Number(v as bigint) / 100;
  }
  return o;
}

interface Case {
  file: string;
  meta: Partial<Filing>;
  cur: Pounds & { period_end: string; period_start: string | null; total_assets_basis?: string; current_liabilities_basis?: string; net_assets_concept?: string };
  prev?: Pounds & { period_end: string };
}

// Hand-worked figures. "ctx X" is the contextRef; its period is read from the xbrli:context of that id.
// total_assets = called-up share capital not paid + FixedAssets + CurrentAssets + Prepayments… not within
// current assets (docs/companies.md), or TotalAssetsLessCurrentLiabilities + current liabilities when
// there are no fixed-asset facts.
const CASES: Case[] = [
  {
    // Companies House WebFiling micro form; ix 2013; uk-core:; unitRef="GBP" on the employee count.
    file: 'Prod223_3517_00193009_20230331.html',
    meta: { company_number: '00193009', company_name: 'ROCHESTER MASONIC HALL & CLUB COMPANY,LIMITED(THE)', filing_type: 'micro', accounting_standard: 'FRS 105', dormant: false, balance_sheet_date: '2023-03-31' },
    cur: {
      period_end: '2023-03-31', period_start: '2022-04-01', // ctx CY 2022-04-01..2023-03-31
      fixed_assets: 97167, current_assets: 60301, // ctx icur1 (instant 2023-03-31)
      current_liabilities: 3298, current_liabilities_basis: 'reported', // Creditors ctx icur9 = WithinOneYear
      net_current_assets: 57003, net_assets: 154170, net_assets_concept: 'NetAssetsLiabilities',
      total_assets: 97167 + 60301, total_assets_basis: 'sum', cash: null, revenue: null, profit_before_tax: null, employees: 0,
    },
    prev: { period_end: '2022-03-31', fixed_assets: 99111, current_assets: 53661, current_liabilities: 702, net_assets: 152070, total_assets: 99111 + 53661, employees: 0 },
  },
  {
    // Sage; ix 2008; core:/bus:; NetCurrentAssetsLiabilities sign="-"; prepayments outside current assets.
    file: 'Prod223_3517_00174098_20230331.html',
    meta: { company_number: '00174098', company_name: 'Bird & Sons (Winscombe) Limited', filing_type: 'micro', accounting_standard: 'FRS 105' },
    cur: {
      period_end: '2023-03-31', period_start: '2022-04-01', // ctx Period_TMinusZero
      fixed_assets: 521618, current_assets: 94223, current_liabilities: 100424, // Creditors ctx WithinOneYear_PeriodEnd_TMinusZero
      net_current_assets: -4435, net_assets: 506992, total_assets: 521618 + 94223 + 1766, employees: 2, // prepayments 1,766
    },
    prev: { period_end: '2022-03-31', fixed_assets: 521701, current_assets: 76178, current_liabilities: 87530, net_current_assets: -9778, net_assets: 509483, total_assets: 521701 + 76178 + 1574, employees: 2 },
  },
  {
    // IRIS: ns5:/ns10: prefixes, hypercube context ids, OriginalRevisedDataDimension=Original on every
    // context, no NetAssetsLiabilities (Equity is the fallback), creditors on CurrentFinancialInstruments.
    file: 'Prod223_3517_00035838_20221231.html',
    meta: { company_number: '00035838', company_name: 'THE WINCHESTER HOUSE CLUB LIMITED', filing_type: 'micro', accounting_standard: 'FRS 105' },
    cur: {
      period_end: '2022-12-31', period_start: '2022-01-01', // ctx BasicHypercube_FY_31_12_2022_Set4
      fixed_assets: 39262, current_assets: 93210, current_liabilities: 62025, current_liabilities_basis: 'reported', // ctx CreditorsHypercube_cfwd_31_12_2022_Set2
      net_current_assets: 31185, net_assets: 70447, net_assets_concept: 'Equity', total_assets: 39262 + 93210, employees: 3,
    },
    prev: { period_end: '2021-12-31', fixed_assets: 38794, current_assets: 76883, current_liabilities: 62097, net_assets: 53580, total_assets: 38794 + 76883, employees: 3 },
  },
  {
    // BTCSoftware: trailing spaces inside the tags, sign="-" on net assets, comparative context 0001-01-01 (dropped).
    file: 'Prod223_3517_13756628_20221130.html',
    meta: { company_number: '13756628', company_name: 'NORTH HARBOUR PROPERTIES LIMITED', filing_type: 'micro', accounting_standard: 'FRS 105', date_authorised: '2023-09-01' },
    cur: {
      period_end: '2022-11-30', period_start: '2021-12-01', fixed_assets: 408837, current_assets: 1577,
      current_liabilities: 227077, // Creditors ctx CurrentEnd_Dim1 (WithinOneYear); CurrentEnd_Dim2 (AfterOneYear, 187,000) is not current
      net_current_assets: -225500, net_assets: -3663, total_assets: 408837 + 1577, employees: 1,
    },
  },
  {
    // Daily zip member: displayed "3" with scale='-2' on the employee count (XBRL value 0.03): the displayed integer is used.
    file: 'Prod223_3384_09355500_20221231.html',
    meta: { company_number: '09355500', filing_type: 'full', accounting_standard: 'FRS 102', duplicates: 2 },
    cur: {
      period_end: '2022-12-31', period_start: '2022-01-01', fixed_assets: 159770, current_assets: 259832, cash: 214222,
      current_liabilities: 44598, net_current_assets: 215234, net_assets: 375004, total_assets: 159770 + 259832, employees: 3,
    },
    prev: { period_end: '2021-12-31', fixed_assets: 159999, current_assets: 160520, cash: 118470, current_liabilities: 34955, net_assets: 285564, total_assets: 159999 + 160520, employees: 2 },
  },
  {
    file: 'Prod223_3384_14033910_20220831.html',
    meta: { company_number: '14033910', filing_type: 'micro', accounting_standard: 'FRS 105' },
    cur: {
      period_end: '2022-08-31', period_start: '2022-04-07', fixed_assets: 883, current_assets: 7558, current_liabilities: 7657,
      net_current_assets: 140, net_assets: -577, total_assets: 883 + 7558 + 239, employees: 1, // NetAssetsLiabilities 577 sign="-"
    },
  },
  {
    // Dormant (EntityDormantTruefalse "true"), no fixed-asset facts: total assets = TALCL 100 + (CA 100 − NCA 100).
    file: 'Prod223_3384_14068295_20221231.html',
    meta: { company_number: '14068295', filing_type: 'dormant', dormant: true, accounting_standard: 'FRS 105' },
    cur: {
      period_end: '2022-12-31', period_start: '2022-04-26', fixed_assets: null, current_assets: 100, current_liabilities: 0,
      current_liabilities_basis: 'derived', net_assets: 100, total_assets: 100 + 0, total_assets_basis: 'talcl', employees: 3,
    },
  },
  {
    // FixedAssets and CalledUpShareCapitalNotPaid shown as "-" (zero).
    file: 'Prod223_3384_NI681295_20220831.html',
    meta: { company_number: 'NI681295', filing_type: 'micro' },
    cur: { period_end: '2022-08-31', period_start: '2021-08-04', fixed_assets: 0, current_assets: 10346, current_liabilities: 6459, net_assets: 3437, total_assets: 0 + 0 + 10346, employees: 1 },
  },
  {
    // Acorah: a context per AccountsType member; the AccountsTypeFullOrAbbreviated fact references
    // CURRENT_FY_PERIOD_AccountsTypeAbridged. Creditors 14,275 un-dimensioned = CA 21,257 − NCA 6,982.
    file: 'Prod223_3384_NI682066_20220930.html',
    meta: { company_number: 'NI682066', filing_type: 'abridged', accounting_standard: 'FRS 102' },
    cur: {
      period_end: '2022-09-30', period_start: '2021-09-02', fixed_assets: 1400, current_assets: 21257, cash: 1624,
      current_liabilities: 14275, current_liabilities_basis: 'undimensioned', net_assets: 8382, total_assets: 1400 + 21257, employees: 2,
    },
  },
  {
    // Dormant LLP: only the employee count; every money figure is null, never 0.
    file: 'Prod223_3384_OC437536_20220531.html',
    meta: { company_number: 'OC437536', filing_type: 'dormant', dormant: true, accounting_standard: 'FRS 102' },
    cur: {
      period_end: '2022-05-31', period_start: '2021-05-20', fixed_assets: null, current_assets: null, current_liabilities: null,
      net_assets: null, total_assets: null, cash: null, revenue: null, profit_before_tax: null, employees: 0,
    },
  },
  {
    // Creditors 233,189 are Non-currentFinancialInstruments: not current; current = CA 3,507 − NCA 3,507 = 0.
    file: 'Prod223_3384_OC438238_20220731.html',
    meta: { company_number: 'OC438238', filing_type: 'full', accounting_standard: 'FRS 102' },
    cur: {
      period_end: '2022-07-31', period_start: '2021-07-07', fixed_assets: 385000, current_assets: 3507, cash: 3057,
      current_liabilities: 0, current_liabilities_basis: 'derived', net_assets: 155318, total_assets: 385000 + 3507, employees: 2,
    },
  },
  {
    // Creditors 42,101 un-dimensioned = CA 19,321 − NCA (−22,780); NetAssetsLiabilities 22,737 sign="-".
    file: 'Prod223_3384_SC720321_20230131.html',
    meta: { company_number: 'SC720321', filing_type: 'full', accounting_standard: 'FRS 102' },
    cur: {
      period_end: '2023-01-31', period_start: '2022-01-19', fixed_assets: 24016, current_assets: 19321, cash: 6400,
      current_liabilities: 42101, current_liabilities_basis: 'undimensioned', net_current_assets: -22780, net_assets: -22737,
      total_assets: 24016 + 19321, employees: 4,
    },
  },
  {
    file: 'Prod223_3384_SC722766_20230228.html',
    meta: { company_number: 'SC722766', filing_type: 'micro' },
    cur: { period_end: '2023-02-28', period_start: '2022-02-10', fixed_assets: null, current_assets: 1, net_assets: 1, total_assets: 1, total_assets_basis: 'talcl', employees: 0 },
  },
];

describe('accounts extractor: real documents (figures worked out by hand)', () => {
  it('covers every real document in the fixtures', () => {
    const names = [...Object.keys(zipMembers), ...['00035838_20221231', '00174098_20230331', '00193009_20230331', '13756628_20221130'].map((s) => `Prod223_3517_${s}.html`)];
    expect(CASES.map((c) => c.file).sort()).toEqual(names.sort());
  });
  for (const c of CASES) {
    it(c.file, () => {
      const f = doc(c.file);
      expect(f).toMatchObject({ format: 'ixbrl', conflicts: [], ...c.meta });
      const cur = f.periods.find((p) => p.is_current)!;
      const { period_end, period_start, total_assets_basis, current_liabilities_basis, net_assets_concept, ...money } = c.cur;
      expect({ period_end: cur.period_end, period_start: cur.period_start }).toEqual({ period_end, period_start });
      expect(pounds(cur, Object.keys(money) as Array<keyof Pounds>)).toEqual(money);
      if (total_assets_basis) expect(cur.total_assets_basis).toBe(total_assets_basis);
      if (current_liabilities_basis) expect(cur.current_liabilities_basis).toBe(current_liabilities_basis);
      if (net_assets_concept) expect(cur.net_assets_concept).toBe(net_assets_concept);
      const prevRows = f.periods.filter((p) => !p.is_current);
      if (c.prev) {
        expect(prevRows).toHaveLength(1);
        const { period_end: pe, ...pm } = c.prev;
        expect(prevRows[0]!.period_end).toBe(pe);
        expect(pounds(prevRows[0]!, Object.keys(pm) as Array<keyof Pounds>)).toEqual(pm);
      } else {
        expect(prevRows).toHaveLength(0);
      }
      // P&L figures: none of these filings has a profit and loss account, so null (never 0)
      for (const p of f.periods) expect([p.revenue, p.cost_of_sales, p.gross_profit, p.profit_before_tax, p.directors_remuneration]).toEqual([null, null, null, null, null]);
    });
  }
});

// ---------------------------------------------------------------------------------------------------
// Synthetic documents (GENERATED, labelled): each quirk the real documents lack.

const IX13 = 'http://www.xbrl.org/2013/inlineXBRL';
const IX08 = 'http://www.xbrl.org/2008/inlineXBRL';
/** A minimal GENERATED iXBRL document: `body` holds the facts; contexts c (instant), d (duration), p/pd (prior). */
function synth(body: string, opts: { ix?: string; prefix?: string; extraContexts?: string; bsd?: string } = {}): Uint8Array {
  const pre = opts.prefix ?? 'core';
  const bsd = opts.bsd ?? '2024-03-31';
  const ent = '<xbrli:entity><xbrli:identifier scheme="http://www.companieshouse.gov.uk/">01234567</xbrli:identifier></xbrli:entity>';
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="${opts.ix ?? IX13}" xmlns:xbrli="http://www.xbrl.org/2003/instance"
 xmlns:xbrldi="http://xbrl.org/2006/xbrldi" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
 xmlns:ixt="http://www.xbrl.org/inlineXBRL/transformation/2010-04-20" xmlns:ixt2="http://www.xbrl.org/inlineXBRL/transformation/2011-07-31"
 xmlns:${pre}="http://xbrl.frc.org.uk/fr/2021-01-01/core" xmlns:bus="http://xbrl.frc.org.uk/cd/2021-01-01/business"><body>
<ix:header><ix:resources>
<xbrli:context id="c">${ent}<xbrli:period><xbrli:instant>${bsd}</xbrli:instant></xbrli:period></xbrli:context>
<xbrli:context id="d">${ent}<xbrli:period><xbrli:startDate>2023-04-01</xbrli:startDate><xbrli:endDate>${bsd}</xbrli:endDate></xbrli:period></xbrli:context>
<xbrli:context id="p">${ent}<xbrli:period><xbrli:instant>2023-03-31</xbrli:instant></xbrli:period></xbrli:context>
<xbrli:context id="pd">${ent}<xbrli:period><xbrli:startDate>2022-04-01</xbrli:startDate><xbrli:endDate>2023-03-31</xbrli:endDate></xbrli:period></xbrli:context>
${opts.extraContexts ?? ''}
</ix:resources></ix:header>
${body}
</body></html>`);
}
const NAME = 'Prod223_0001_01234567_20240331.html';
function ok(bytes: Uint8Array, name = NAME): Filing {
  const r = extractDocument(bytes, name);
  if (!r.ok) throw new Error(r.reason);
  return r.filing;
}
const cur = (f: Filing) => f.periods.find((p) => p.is_current)!;
const nf = (name: string, ctx: string, text: string, attrs = '') =>
  `<ix:nonFraction name="${name}" contextRef="${ctx}" unitRef="GBP" decimals="0"${attrs}>${text}</ix:nonFraction>`;

describe('accounts extractor: quirks (GENERATED documents)', () => {
  it('any namespace prefix, both ix namespaces', () => {
    for (const [ix, prefix] of [[IX13, 'd'], [IX08, 'frs-core'], [IX13, 'ns5']] as const) {
      const f = ok(synth(nf(`${prefix}:CurrentAssets`, 'c', '1,234'), { ix, prefix }));
      expect(cur(f).current_assets).toBe(123400n);
    }
  });

  it('a prefix bound to a non-ix namespace is not Inline XBRL', () => {
    const bytes = Buffer.from(synth(nf('core:CurrentAssets', 'c', '5')).toString().replace(`xmlns:ix="${IX13}"`, 'xmlns:ix="http://example.com/not-ix"'));
    expect(extractDocument(bytes, NAME)).toEqual({ ok: false, reason: 'no Inline XBRL facts in the document' });
  });

  it('namespace bindings scoped to an element: a prefix re-bound inside the body, and back', () => {
    // GENERATED. The extractor caches an element's kind per QName; a binding that changes mid-document
    // (here `ix` bound to a non-ix URI inside one <div>, and `x` bound to ix only there) must be honoured.
    const body = `<div xmlns:ix="http://example.com/not-ix">${nf('core:CashBankOnHand', 'c', '7')}</div>
      <div xmlns:x="${IX13}"><x:nonFraction name="core:FixedAssets" contextRef="c" unitRef="GBP" decimals="0">2</x:nonFraction></div>
      <x:nonFraction xmlns:x="http://example.com/other" name="core:TurnoverRevenue" contextRef="d" unitRef="GBP">9</x:nonFraction>
      ${nf('core:CurrentAssets', 'c', '5')}`;
    const f = ok(synth(body));
    expect([cur(f).cash, cur(f).fixed_assets, cur(f).current_assets, cur(f).revenue]).toEqual([null, 200n, 500n, null]);
    expect(f.facts).toBe(2); // the two elements in an ix namespace
  });

  it('an XBRL namespace as the default: unprefixed context elements of an iXBRL document are read', () => {
    // GENERATED: contexts written unprefixed inside an element whose default namespace is xbrli.
    const ctx = `<context xmlns="http://www.xbrl.org/2003/instance" id="z"><entity><identifier scheme="s">01234567</identifier></entity><period><instant>2024-03-31</instant></period></context>`;
    const f = ok(synth(nf('core:CurrentAssets', 'z', '4'), { extraContexts: ctx }));
    expect(cur(f).current_assets).toBe(400n);
  });

  it('facts of concepts outside the concept map are counted, not kept; xsi declared on the fact itself', () => {
    // GENERATED: 3 facts the map does not want (one wrapping a wanted one), 2 it does.
    const body = `<ix:nonNumeric name="bus:DescriptionPrincipalActivities" contextRef="d">Widgets ${nf('core:CurrentAssets', 'c', '6')}</ix:nonNumeric>
      ${nf('core:IntangibleAssets', 'c', '1')}${nf('core:Stocks', 'c', '1')}
      <ix:nonFraction xmlns:i="http://www.w3.org/2001/XMLSchema-instance" i:nil="true" name="core:CashBankOnHand" contextRef="c" unitRef="GBP"/>`;
    const f = ok(synth(body));
    expect(f.facts).toBe(5);
    expect(cur(f).current_assets).toBe(600n);
    expect(cur(f).cash).toBeNull();
    expect(f.duplicates).toBe(0);
  });

  it('parseDisplayed: the regex-free common case agrees with the general path', () => {
    // whitespace/nbsp around, group commas, decimals: the same values the general path gives
    expect(parseDisplayed(' 1,234,567 ', undefined)).toEqual({ n: 1234567n, e: 0 });
    expect(parseDisplayed('\u00a012,345.50\n', 'ixt:numdotdecimal')).toEqual({ n: 1234550n, e: -2 });
    expect(parseDisplayed('12.', 'ixt2:numcommadot')).toEqual({ n: 12n, e: 0 });
    expect(parseDisplayed('0', undefined)).toEqual({ n: 0n, e: 0 });
    // not the common case: these take the general path
    expect(parseDisplayed('1 234', undefined)).toEqual({ n: 1234n, e: 0 });
    expect(parseDisplayed('1,,234', undefined)).toEqual({ n: 1234n, e: 0 });
    expect(parseDisplayed('.5', undefined)).toEqual({ n: 5n, e: -1 });
    expect(parseDisplayed('1,234.5.6', undefined)).toBeUndefined();
    expect(parseDisplayed('1,234,', undefined)).toBeUndefined();
    expect(parseDisplayed('–', undefined)).toEqual({ n: 0n, e: 0 });
  });

  it('sign="-" negates; scale (3, 6, and negative) shifts the decimal point exactly', () => {
    const f = ok(synth([
      nf('core:NetAssetsLiabilities', 'c', '4,435', ' sign="-"'),
      nf('core:CurrentAssets', 'c', '1.5', ' scale="6" format="ixt2:numdotdecimal"'),
      nf('core:FixedAssets', 'c', '12', ' scale="3"'),
      nf('core:CashBankOnHand', 'c', '12345', ' scale="-2"'),
    ].join('')));
    const p = cur(f);
    expect(p.net_assets).toBe(-443500n);
    expect(p.current_assets).toBe(150000000n); // 1.5 million pounds
    expect(p.fixed_assets).toBe(1200000n); // 12 thousand
    expect(p.cash).toBe(12345n); // 123.45 pounds
  });

  it('ixt formats: numcommadot, numdotdecimal, numdotcomma/numcommadecimal, numdash/zerodash, nocontent', () => {
    expect(parseDisplayed('1,234,567.89', 'ixt:numcommadot')).toEqual({ n: 123456789n, e: -2 });
    expect(parseDisplayed('1,234', 'ixt2:numdotdecimal')).toEqual({ n: 1234n, e: 0 });
    expect(parseDisplayed('1.234.567,8', 'ixt:numdotcomma')).toEqual({ n: 12345678n, e: -1 });
    expect(parseDisplayed('1 234,50', 'ixt2:numcommadecimal')).toEqual({ n: 123450n, e: -2 });
    expect(parseDisplayed('-', 'ixt:numdash')).toEqual({ n: 0n, e: 0 });
    expect(parseDisplayed('—', 'ixt2:zerodash')).toEqual({ n: 0n, e: 0 });
    expect(parseDisplayed('–', undefined)).toEqual({ n: 0n, e: 0 });
    expect(parseDisplayed('', 'ixt2:nocontent')).toBeNull();
    expect(parseDisplayed('twelve', 'ixt2:numdotdecimal')).toBeUndefined();
    const f = ok(synth([
      nf('core:CurrentAssets', 'c', '2.500,75', ' format="ixt:numdotcomma"'),
      nf('core:FixedAssets', 'c', '-', ' format="ixt:numdash"'),
      nf('core:CashBankOnHand', 'c', '', ' format="ixt2:nocontent"'),
    ].join('')));
    expect([cur(f).current_assets, cur(f).fixed_assets, cur(f).cash]).toEqual([250075n, 0n, null]);
  });

  it('xsi:nil gives null, not 0', () => {
    const f = ok(synth(nf('core:CashBankOnHand', 'c', '', ' xsi:nil="true"') + nf('core:CurrentAssets', 'c', '10')));
    expect(cur(f).cash).toBeNull();
    expect(cur(f).current_assets).toBe(1000n);
  });

  it('ix:hidden facts count; ix:exclude text is left out; ix:continuation joins nonNumeric text', () => {
    const body = `<ix:header><ix:hidden>${nf('core:TurnoverRevenue', 'd', '50,000')}</ix:hidden></ix:header>
      <p>${nf('core:CurrentAssets', 'c', '1,<ix:exclude>999</ix:exclude>000')}</p>
      <ix:nonNumeric name="bus:EntityCurrentLegalOrRegisteredName" contextRef="d" continuedAt="k1">ACME <ix:exclude>(ignored)</ix:exclude>WIDGETS</ix:nonNumeric>
      <ix:continuation id="k1"> LIMITED</ix:continuation>`;
    const f = ok(synth(body));
    expect(cur(f).revenue).toBe(5000000n);
    expect(cur(f).current_assets).toBe(100000n);
    expect(f.company_name).toBe('ACME WIDGETS LIMITED');
  });

  it('a number split across spans, with trailing spaces and an &nbsp; entity', () => {
    const f = ok(synth(nf('core:CurrentAssets', 'c', '<span>12</span>,<span>345</span>&nbsp; ')));
    expect(cur(f).current_assets).toBe(1234500n);
  });

  it('duplicates are deduplicated per concept and context; a conflict is flagged, the first value kept', () => {
    const f = ok(synth([
      nf('core:CurrentAssets', 'c', '100'), nf('core:CurrentAssets', 'c', '100'),
      nf('core:FixedAssets', 'c', '200'), nf('core:FixedAssets', 'c', '250'),
      // same value at a coarser precision (decimals -3): consistent, not a conflict
      nf('core:CashBankOnHand', 'c', '1,234'), `<ix:nonFraction name="core:CashBankOnHand" contextRef="c" unitRef="GBP" decimals="-3" scale="3">1</ix:nonFraction>`,
    ].join('')));
    expect(f.duplicates).toBe(3);
    expect(f.conflicts).toEqual([{ concept: 'FixedAssets', context: 'c', values: ['200', '250'] }]);
    expect(cur(f).fixed_assets).toBe(20000n);
    expect(cur(f).cash).toBe(123400n);
  });

  it('arbitrary context ids: the period comes from the context element, current vs comparative', () => {
    const ctx = (id: string, d: string) => `<xbrli:context id="${id}"><xbrli:entity><xbrli:identifier scheme="x">01234567</xbrli:identifier></xbrli:entity><xbrli:period><xbrli:instant>${d}</xbrli:instant></xbrli:period></xbrli:context>`;
    const f = ok(synth(nf('core:CurrentAssets', 'zz_2', '7') + nf('core:CurrentAssets', 'C', '9'), {
      extraContexts: ctx('zz_2', '2023-03-31') + ctx('C', '2024-03-31'),
    }));
    expect(f.periods.map((p) => [p.period_end, p.is_current, p.current_assets])).toEqual([['2024-03-31', true, 900n], ['2023-03-31', false, 700n]]);
  });

  it('dimensional contexts are excluded from headline figures, except OriginalRevisedDataDimension', () => {
    const seg = (dims: string) => `<xbrli:context id="x"><xbrli:entity><xbrli:identifier scheme="x">01234567</xbrli:identifier><xbrli:segment>${dims}</xbrli:segment></xbrli:entity><xbrli:period><xbrli:instant>2024-03-31</xbrli:instant></xbrli:period></xbrli:context>`;
    const orig = '<xbrldi:explicitMember dimension="bus:OriginalRevisedDataDimension">bus:Original</xbrldi:explicitMember>';
    const share = '<xbrldi:explicitMember dimension="core:EquityClassesDimension">core:ShareCapital</xbrldi:explicitMember>';
    expect(cur(ok(synth(nf('core:Equity', 'x', '5'), { extraContexts: seg(orig) }))).net_assets).toBe(500n);
    const f = ok(synth(nf('core:Equity', 'x', '5') + nf('core:CurrentAssets', 'c', '1'), { extraContexts: seg(orig + share) }));
    expect(cur(f).net_assets).toBeNull();
  });

  it('net assets fall back to Equity only when NetAssetsLiabilities is absent', () => {
    expect(cur(ok(synth(nf('core:Equity', 'c', '8') + nf('core:NetAssetsLiabilities', 'c', '9')))).net_assets).toBe(900n);
    const f = cur(ok(synth(nf('core:Equity', 'c', '8'))));
    expect([f.net_assets, f.net_assets_concept]).toEqual([800n, 'Equity']);
  });

  it('full accounts: P&L figures, directors remuneration, employees; ProfitLoss (after tax) is not PBT', () => {
    const body = [
      nf('core:TurnoverRevenue', 'd', '1,000,000'), nf('core:CostSales', 'd', '600,000'), nf('core:GrossProfitLoss', 'd', '400,000'),
      nf('core:ProfitLoss', 'd', '90,000'), nf('core:ProfitLossOnOrdinaryActivitiesBeforeTax', 'd', '120,000'),
      nf('core:DirectorRemuneration', 'd', '45,500'), nf('core:TurnoverRevenue', 'pd', '800,000'),
      `<ix:nonFraction name="core:AverageNumberEmployeesDuringPeriod" contextRef="d" unitRef="pure" decimals="0">12</ix:nonFraction>`,
    ].join('');
    const f = ok(synth(body));
    const p = cur(f);
    expect([p.revenue, p.cost_of_sales, p.gross_profit, p.profit_before_tax, p.directors_remuneration, p.employees])
      .toEqual([100000000n, 60000000n, 40000000n, 12000000n, 4550000n, 12]);
    expect(p.period_start).toBe('2023-04-01');
    expect(f.periods[1]!.revenue).toBe(80000000n);
    // a filing that does not state PBT: null, not ProfitLoss
    expect(cur(ok(synth(nf('core:ProfitLoss', 'd', '5')))).profit_before_tax).toBeNull();
  });

  it('plain XBRL (.xml): facts are root children with contextRef; sign in the text; CreditorsDueWithinOneYear', () => {
    const xml = accountsDocument({
      style: 'xbrl', company: 'SC123456', name: 'X & Y LTD', bsd: '2024-06-30',
      cur: { FixedAssets: 100, CurrentAssets: 50, Creditors: 30, NetAssetsLiabilities: -5, TurnoverRevenue: 999, AverageNumberEmployeesDuringPeriod: 4 },
      prev: { CurrentAssets: 40 },
    });
    const f = ok(Buffer.from(xml), memberName('SC123456', '2024-06-30', 'xml'));
    expect(f).toMatchObject({ format: 'xbrl', company_number: 'SC123456', company_name: 'X & Y LTD', balance_sheet_date: '2024-06-30' });
    const p = cur(f);
    expect([p.fixed_assets, p.current_assets, p.current_liabilities, p.net_assets, p.revenue, p.employees, p.total_assets])
      .toEqual([10000n, 5000n, 3000n, -500n, 99900n, 4, 15000n]);
    expect(f.periods[1]).toMatchObject({ period_end: '2023-06-30', current_assets: 4000n });
  });

  it('filing metadata from the dimension members of the metadata facts (generated full/abridged/filleted)', () => {
    for (const [accountsType, standard, want] of [['FullAccounts', 'FRS102', 'full'], ['AbridgedAccounts', 'FRS102', 'abridged'], ['FilletedAccounts', 'FRS102', 'filleted'], ['FullAccounts', 'Micro-entities', 'micro']] as const) {
      const html = accountsDocument({ style: 'full', company: '00000001', name: 'A', bsd: '2024-12-31', cur: { CurrentAssets: 1 }, accountsType, standard });
      expect(ok(Buffer.from(html), memberName('00000001', '2024-12-31')).filing_type).toBe(want);
    }
  });

  it('a BOM before <?xml and CRLF line ends', () => {
    const b = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(synth(nf('core:CurrentAssets', 'c', '3')).toString().replace(/\n/g, '\r\n'))]);
    expect(cur(ok(b)).current_assets).toBe(300n);
  });

  it('broken members become rejects with a reason', () => {
    expect(extractDocument(Buffer.from('ATTACHMENTPLACEHOLDER127319911'), NAME)).toEqual({ ok: false, reason: 'placeholder file, no accounts (ATTACHMENTPLACEHOLDER127319911)' });
    expect(extractDocument(Buffer.from([0x00, 0x9c, 0xff, 0x12, 0x88, 0x01]), NAME)).toEqual({ ok: false, reason: 'not an XML or HTML document (binary content)' });
    const bad = extractDocument(Buffer.from('<?xml version="1.0"?><xbrli:xbrl xmlns:xbrli="http://www.xbrl.org/2003/instance"><a></b></xbrli:xbrl>'), NAME);
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.reason).toMatch(/^malformed XML: /);
    expect(extractDocument(Buffer.from(''), NAME)).toEqual({ ok: false, reason: 'empty member' });
  });

  it('member names, loose dates, rounding to pence', () => {
    expect(parseMemberName('Prod224_0088_SC720321_20230131.xml')).toEqual({ company_number: 'SC720321', balance_sheet_date: '2023-01-31' });
    expect(parseMemberName('Prod223_1_1234_20230131.html')).toEqual({ company_number: '00001234', balance_sheet_date: '2023-01-31' });
    expect(parseMemberName('notes.txt')).toBeUndefined();
    expect(parseLooseDate('1.1.22')).toBe('2022-01-01');
    expect(parseLooseDate('31/03/2023')).toBe('2023-03-31');
    expect(parseLooseDate('30\n November 2022')).toBe('2022-11-30');
    expect(parseLooseDate('31st March 2023')).toBe('2023-03-31');
    expect(parseLooseDate('31/02/2023')).toBeNull();
    expect(toPence({ n: 12345n, e: -3 })).toBe(1235n); // 12.345 -> 12.35 (half away from zero)
    expect(toPence({ n: -12345n, e: -3 })).toBe(-1235n);
    expect(toPence({ n: 12344n, e: -3 })).toBe(1234n);
  });
});
