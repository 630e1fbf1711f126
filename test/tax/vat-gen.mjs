// Deterministic generator of mixed, valid VAT return bodies: a plain module, so the tests and
// bench/tax-vat-return.bench.mjs share one generator (types: vat-gen.d.mts).

function lcg(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

export const KINDS = [
  // type, supply_type, vat_rate
  ['sale', 'domestic', 'standard'],
  ['sale', 'domestic', 'reduced'],
  ['sale', 'domestic', 'zero'],
  ['sale', 'domestic', 'exempt'],
  ['sale', 'export_outside_ec', 'zero'],
  ['sale', 'ec_supply_goods', 'zero'],
  ['sale', 'domestic_reverse_charge', 'standard'],
  ['purchase', 'domestic', 'standard'],
  ['purchase', 'domestic', 'reduced'],
  ['purchase', 'domestic_reverse_charge', 'standard'],
  ['purchase', 'import_postponed_vat', 'standard'],
  ['purchase', 'import_outside_ec', 'standard'],
  ['purchase', 'ec_acquisition_goods', 'standard'],
  ['purchase', 'ec_acquisition_services', 'standard'],
  ['credit_note_issued', 'domestic', 'standard'],
  ['credit_note_received', 'domestic', 'standard'],
  ['debit_note_issued', 'domestic', 'standard'],
  ['debit_note_received', 'domestic', 'standard'],
];

export const PCT = { standard: 20, reduced: 5, zero: 0, exempt: 0 };

export function mixedBody(n, seed = 42, company) {
  const rnd = lcg(seed);
  const transactions = [];
  for (let i = 0; i < n; i++) {
    const [type, supply, rate] = KINDS[Math.floor(rnd() * KINDS.length)];
    const netP = 100 + Math.floor(rnd() * 500_000);
    const vatP = supply === 'domestic_reverse_charge' && type === 'sale' ? 0 : Math.round((netP * PCT[rate]) / 100);
    const sign = type.startsWith('credit_note') ? -1 : 1;
    const day = 1 + Math.floor(rnd() * 92);
    const d = new Date(Date.UTC(2026, 6, day));
    const t = {
      id: `TX${String(i).padStart(6, '0')}`,
      date: d.toISOString().slice(0, 10),
      type,
      net_amount: (sign * netP) / 100,
      vat_amount: (sign * vatP) / 100,
      gross_amount: (sign * (netP + vatP)) / 100,
      vat_rate: rate,
      vat_rate_percentage: PCT[rate],
      supply_type: supply,
      is_capital_asset: false,
    };
    if (rate === 'exempt') delete t['vat_rate_percentage'];
    transactions.push(t);
  }
  return {
    company: company ?? {
      vat_registration_number: 'XI123456789',
      vat_schemes: [{ scheme: 'standard', effective_from: '2020-01-01', effective_to: null }],
      partially_exempt: false,
    },
    period: { start_date: '2026-07-01', end_date: '2026-09-30' },
    transactions,
  };
}
