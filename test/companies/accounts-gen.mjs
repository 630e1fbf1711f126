// GENERATED-DOCUMENT BUILDER (not upstream data). Builds Companies House accounts documents in the real
// formats, modelled on the real members in test/fixtures/companies/accounts/:
//   'webfiling' — Companies House WebFiling micro-entity form (ix 2013, `uk-core:`/`uk-bus:`, contexts
//                 icur1/iprev8, creditors on MaturitiesOrExpirationPeriodsDimension=WithinOneYear);
//   'iris'      — IRIS Accounts Production (auto prefixes ns5/ns10, hypercube context ids with
//                 OriginalRevisedDataDimension=Original on every context, no NetAssetsLiabilities, creditors
//                 on FinancialInstrumentCurrentNon-currentDimension);
//   'full'      — full FRS 102 accounts with a profit and loss account (ix 2008, `core:`/`bus:`, single
//                 quotes and spaces around `=`, turnover/cost of sales/gross profit/PBT, directors'
//                 remuneration) — no real member with a P&L under 150 KB was found (see SOURCES);
//   'xbrl'      — a plain XBRL instance (.xml, ~3% of members).
// Used by the accounts tests and bench/companies-accounts.bench.mjs. Figures are whole pounds.

const NS = {
  ix2013: 'http://www.xbrl.org/2013/inlineXBRL',
  ix2008: 'http://www.xbrl.org/2008/inlineXBRL',
  core: 'http://xbrl.frc.org.uk/fr/2021-01-01/core',
  bus: 'http://xbrl.frc.org.uk/cd/2021-01-01/business',
};

const fmtNum = (n) => Math.abs(n).toLocaleString('en-GB', { maximumFractionDigits: 2 });

/** One yyyy-mm-dd a year before. */
export function yearBefore(d) {
  return `${Number(d.slice(0, 4)) - 1}${d.slice(4)}`;
}
function dayAfter(d) {
  const t = new Date(`${d}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + 1);
  return t.toISOString().slice(0, 10);
}

/**
 * @param {object} o
 * @param {string} o.company  company number (8 chars)
 * @param {string} o.name     company name
 * @param {string} o.bsd      balance-sheet date
 * @param {'webfiling'|'iris'|'full'|'xbrl'} [o.style]
 * @param {Record<string, number>} o.cur   figures of the current period (keys: FixedAssets, CurrentAssets, Creditors (within one year), NetCurrentAssetsLiabilities, TotalAssetsLessCurrentLiabilities, NetAssetsLiabilities, Equity, CashBankOnHand, TurnoverRevenue, CostSales, GrossProfitLoss, ProfitLossOnOrdinaryActivitiesBeforeTax, DirectorRemuneration, AverageNumberEmployeesDuringPeriod)
 * @param {Record<string, number>} [o.prev] figures of the comparative period
 * @param {string} [o.accountsType]  AccountsTypeDimension member (default FullAccounts)
 * @param {string} [o.standard]      AccountingStandardsDimension member (default Micro-entities for webfiling/iris, FRS102 for full)
 * @param {boolean} [o.dormant]
 * @returns {string}
 */
export function accountsDocument(o) {
  const style = o.style ?? 'webfiling';
  if (style === 'xbrl') return xbrlInstance(o);
  const bsd = o.bsd;
  const start = dayAfter(yearBefore(bsd));
  const pbsd = yearBefore(bsd);
  const pstart = dayAfter(yearBefore(pbsd));
  const std = o.standard ?? (style === 'full' ? 'FRS102' : 'Micro-entities');
  const type = o.accountsType ?? 'FullAccounts';
  const ix2008 = style === 'full';
  const core = style === 'iris' ? 'ns5' : style === 'full' ? 'core' : 'uk-core';
  const bus = style === 'iris' ? 'ns10' : style === 'full' ? 'bus' : 'uk-bus';
  const q = style === 'full' ? "'" : '"';
  const eq = style === 'full' ? ' = ' : '=';
  const a = (k, v) => `${k}${eq}${q}${v}${q}`;
  const orig = style === 'iris' ? `<xbrldi:explicitMember dimension="${bus}:OriginalRevisedDataDimension">${bus}:Original</xbrldi:explicitMember>` : '';
  const ctxIds = style === 'iris'
    ? { cur: `BasicHypercube_cfwd_${bsd}_Set1`, prev: `BasicHypercube_cfwd_${pbsd}_Set1`, dcur: `BasicHypercube_FY_${bsd}_Set4`, dprev: `Income-MainHypercube_FY_${pbsd}_Set1`, clcur: `CreditorsHypercube_cfwd_${bsd}_Set2`, clprev: `CreditorsHypercube_cfwd_${pbsd}_Set2` }
    : style === 'full'
      ? { cur: 'PeriodEnd_TMinusZero', prev: 'PeriodEnd_TMinusOne', dcur: 'Period_TMinusZero', dprev: 'Period_TMinusOne', clcur: 'WithinOneYear_PeriodEnd_TMinusZero', clprev: 'WithinOneYear_PeriodEnd_TMinusOne' }
      : { cur: 'icur1', prev: 'iprev8', dcur: 'CY', dprev: 'PY', clcur: 'icur9', clprev: 'iprev10' };
  const clDim = style === 'iris'
    ? `<xbrldi:explicitMember dimension="${core}:FinancialInstrumentCurrentNon-currentDimension">${core}:CurrentFinancialInstruments</xbrldi:explicitMember>`
    : `<xbrldi:explicitMember dimension="${core}:MaturitiesOrExpirationPeriodsDimension">${core}:WithinOneYear</xbrldi:explicitMember>`;
  const ent = (seg) => `<xbrli:entity><xbrli:identifier scheme="http://www.companieshouse.gov.uk/">${o.company}</xbrli:identifier>${seg ? `<xbrli:segment>${seg}</xbrli:segment>` : ''}</xbrli:entity>`;
  const inst = (id, d, seg = '') => `<xbrli:context id="${id}">${ent(orig + seg)}<xbrli:period><xbrli:instant>${d}</xbrli:instant></xbrli:period></xbrli:context>`;
  const dur = (id, s, e, seg = '') => `<xbrli:context id="${id}">${ent(orig + seg)}<xbrli:period><xbrli:startDate>${s}</xbrli:startDate><xbrli:endDate>${e}</xbrli:endDate></xbrli:period></xbrli:context>`;
  const contexts = [
    inst(ctxIds.cur, bsd), inst(ctxIds.clcur, bsd, clDim), dur(ctxIds.dcur, start, bsd),
    dur('AccountsType', start, bsd, `<xbrldi:explicitMember dimension="${bus}:AccountsTypeDimension">${bus}:${type}</xbrldi:explicitMember>`),
    dur('Standard', start, bsd, `<xbrldi:explicitMember dimension="${bus}:AccountingStandardsDimension">${bus}:${std}</xbrldi:explicitMember>`),
  ];
  if (o.prev) contexts.push(inst(ctxIds.prev, pbsd), inst(ctxIds.clprev, pbsd, clDim), dur(ctxIds.dprev, pstart, pbsd));
  const DURATION = new Set(['TurnoverRevenue', 'CostSales', 'GrossProfitLoss', 'ProfitLossOnOrdinaryActivitiesBeforeTax', 'DirectorRemuneration', 'AverageNumberEmployeesDuringPeriod']);
  const fmt = ix2008 ? 'ixt:numcommadot' : 'ixt2:numdotdecimal';
  const facts = (fig, which) => {
    const rows = [];
    for (const [k, v] of Object.entries(fig)) {
      if (v === undefined || v === null) continue;
      if (style === 'iris' && k === 'NetAssetsLiabilities') continue; // IRIS tags only Equity
      const ctx = k === 'Creditors' ? (which === 'cur' ? ctxIds.clcur : ctxIds.clprev) : DURATION.has(k) ? (which === 'cur' ? ctxIds.dcur : ctxIds.dprev) : which === 'cur' ? ctxIds.cur : ctxIds.prev;
      const unit = k === 'AverageNumberEmployeesDuringPeriod' ? 'pure' : 'GBP';
      const sign = v < 0 ? ` ${a('sign', '-')}` : '';
      const open = `<ix:nonFraction ${a('contextRef', ctx)} ${a('name', `${core}:${k}`)} ${a('unitRef', unit)} ${a('decimals', '0')} ${a('format', fmt)}${sign}>`;
      rows.push(`<tr><td>${k}</td><td class="figure">${v < 0 ? '(' : ''}${open}${fmtNum(v)}</ix:nonFraction>${v < 0 ? ')' : ''}</td></tr>`);
    }
    return rows.join('\n');
  };
  const nonNum = (name, ctx, text) => `<ix:nonNumeric ${a('name', name)} ${a('contextRef', ctx)}>${text}</ix:nonNumeric>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="${ix2008 ? NS.ix2008 : NS.ix2013}" xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:xbrldi="http://xbrl.org/2006/xbrldi" xmlns:ixt="http://www.xbrl.org/inlineXBRL/transformation/2010-04-20" xmlns:ixt2="http://www.xbrl.org/inlineXBRL/transformation/2011-07-31" xmlns:iso4217="http://www.xbrl.org/2003/iso4217" xmlns:link="http://www.xbrl.org/2003/linkbase" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:${core}="${NS.core}" xmlns:${bus}="${NS.bus}">
<head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8" /><title>${o.name} - Accounts</title></head>
<body>
<div style="display:none"><ix:header><ix:hidden>
${nonNum(`${bus}:EntityDormantTruefalse`, ctxIds.dcur, o.dormant ? 'true' : 'false')}
${nonNum(`${bus}:AccountsTypeFullOrAbbreviated`, 'AccountsType', '')}
${nonNum(`${bus}:AccountingStandardsApplied`, 'Standard', '')}
</ix:hidden><ix:references><link:schemaRef xlink:type="simple" xlink:href="https://xbrl.frc.org.uk/FRS-102/2021-01-01/FRS-102-2021-01-01.xsd" /></ix:references>
<ix:resources>
${contexts.join('\n')}
<xbrli:unit id="GBP"><xbrli:measure>iso4217:GBP</xbrli:measure></xbrli:unit><xbrli:unit id="pure"><xbrli:measure>xbrli:pure</xbrli:measure></xbrli:unit>
</ix:resources></ix:header></div>
<h1>${nonNum(`${bus}:EntityCurrentLegalOrRegisteredName`, ctxIds.dcur, o.name.replace(/&/g, '&amp;'))}</h1>
<p>Registered number: ${nonNum(`${bus}:UKCompaniesHouseRegisteredNumber`, ctxIds.dcur, o.company)}</p>
<p>Balance sheet as at ${nonNum(`${bus}:BalanceSheetDate`, ctxIds.cur, bsd)}&nbsp;</p>
<table>
${facts(o.cur, 'cur')}
${o.prev ? facts(o.prev, 'prev') : ''}
</table>
</body></html>
`;
}

function xbrlInstance(o) {
  const bsd = o.bsd;
  const start = dayAfter(yearBefore(bsd));
  const pbsd = yearBefore(bsd);
  const pstart = dayAfter(yearBefore(pbsd));
  const ctx = (id, period) => `<xbrli:context id="${id}"><xbrli:entity><xbrli:identifier scheme="http://www.companieshouse.gov.uk/">${o.company}</xbrli:identifier></xbrli:entity><xbrli:period>${period}</xbrli:period></xbrli:context>`;
  const DURATION = new Set(['TurnoverRevenue', 'CostSales', 'GrossProfitLoss', 'ProfitLossOnOrdinaryActivitiesBeforeTax', 'DirectorRemuneration', 'AverageNumberEmployeesDuringPeriod']);
  const facts = (fig, which) => Object.entries(fig).filter(([, v]) => v !== undefined && v !== null).map(([k, v]) => {
    const name = k === 'Creditors' ? 'CreditorsDueWithinOneYear' : k;
    const c = DURATION.has(k) ? `d${which}` : `i${which}`;
    const unit = k === 'AverageNumberEmployeesDuringPeriod' ? 'pure' : 'GBP';
    return `<core:${name} contextRef="${c}" unitRef="${unit}" decimals="0">${v}</core:${name}>`;
  }).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<xbrli:xbrl xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:link="http://www.xbrl.org/2003/linkbase" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:iso4217="http://www.xbrl.org/2003/iso4217" xmlns:core="${NS.core}" xmlns:bus="${NS.bus}">
<link:schemaRef xlink:type="simple" xlink:href="https://xbrl.frc.org.uk/FRS-102/2021-01-01/FRS-102-2021-01-01.xsd"/>
${ctx('icur', `<xbrli:instant>${bsd}</xbrli:instant>`)}
${ctx('dcur', `<xbrli:startDate>${start}</xbrli:startDate><xbrli:endDate>${bsd}</xbrli:endDate>`)}
${o.prev ? ctx('iprev', `<xbrli:instant>${pbsd}</xbrli:instant>`) : ''}
${o.prev ? ctx('dprev', `<xbrli:startDate>${pstart}</xbrli:startDate><xbrli:endDate>${pbsd}</xbrli:endDate>`) : ''}
<xbrli:unit id="GBP"><xbrli:measure>iso4217:GBP</xbrli:measure></xbrli:unit>
<xbrli:unit id="pure"><xbrli:measure>xbrli:pure</xbrli:measure></xbrli:unit>
<bus:UKCompaniesHouseRegisteredNumber contextRef="dcur">${o.company}</bus:UKCompaniesHouseRegisteredNumber>
<bus:EntityCurrentLegalOrRegisteredName contextRef="dcur">${o.name.replace(/&/g, '&amp;')}</bus:EntityCurrentLegalOrRegisteredName>
${facts(o.cur, 'cur')}
${o.prev ? facts(o.prev, 'prev') : ''}
</xbrli:xbrl>
`;
}

/** Member name as in the bulk zips: Prod223_<run>_<company>_<YYYYMMDD>.<ext>. */
export function memberName(company, bsd, ext = 'html', run = '3517') {
  return `Prod223_${run}_${company}_${bsd.replace(/-/g, '')}.${ext}`;
}
