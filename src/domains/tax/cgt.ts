/**
 * Capital gains tax for individuals on one gain (data/tax/capital_gains.yaml).
 *
 * - The caller names the band (basic or higher) the gain falls in; additional-rate taxpayers use higher.
 * - Rates by disposal date: 2024-25 changed on 30 Oct 2024 (other assets 10/20% -> 18/24%).
 * - The annual exempt amount (AEA) is deducted from the gain (TCGA 1992 s.1K) and set first against the part
 *   taxed at the highest rate (TCGA 1992 s.4B: the taxpayer may allocate it most beneficially).
 * - Business Asset Disposal Relief: the BADR rate applies to qualifying gains up to the lifetime limit
 *   (TCGA 1992 s.169N); this calculator assumes no earlier BADR claims, so the part of the gain above the
 *   limit is charged at the other_assets rate of the band.
 * - Tax is exact in fractions of a penny, summed over the parts, then rounded down to the whole penny
 *   (the fraction of a penny is not charged; docs/tax-business.md "Rounding").
 */
import { loadData } from '../../data.js';
import { divRoundBig, PPM, ratePpm } from '../../money.js';

export type CgtAssetType = 'residential_property' | 'other_assets' | 'business_asset_disposal';
export type CgtBand = 'basic' | 'higher';
export type CgtRates = Record<CgtAssetType, Record<CgtBand, number>>;

export interface CgtRatePeriod {
  from: string;
  to: string;
  rates: CgtRates;
}

export interface CgtYear {
  annual_exempt_amount: number;
  business_asset_disposal_lifetime: number;
  rate_periods: CgtRatePeriod[];
  source: string[];
}

export interface CgtData {
  meta: { as_of: string; source_url: string; asset_types: CgtAssetType[]; bands: CgtBand[] };
  sources: Record<string, string>;
  years: Record<string, CgtYear>;
}

export function cgtData(): CgtData {
  return loadData<CgtData>('tax/capital_gains');
}

export function cgtYears(): string[] {
  return Object.keys(cgtData().years);
}

/** The rate period of a tax year in force on `date` (which must lie in the year). */
export function cgtRatePeriod(taxYear: string, date: string): CgtRatePeriod | undefined {
  return cgtData().years[taxYear]?.rate_periods.find((p) => p.from <= date && date <= p.to);
}

export interface CgtPart {
  description: 'badr_within_lifetime_limit' | 'above_badr_lifetime_limit' | 'gain';
  /** Gain of this part before the AEA, pence. */
  gain_pence: number;
  /** AEA set against this part, pence. */
  annual_exempt_amount_pence: number;
  taxable_pence: number;
  rate: number;
  /** Tax on this part, exact, in millionths of a penny. */
  tax_micro_pence: bigint;
}

export interface CgtResult {
  gain_pence: number;
  annual_exempt_amount_pence: number;
  taxable_gain_pence: number;
  /** The rate of the asset type and band (BADR: the BADR rate even when part of the gain is above the limit). */
  rate: number;
  tax_pence: number;
  parts: CgtPart[];
}

export interface CgtInput {
  gainPence: number;
  assetType: CgtAssetType;
  band: CgtBand;
  rates: CgtRates;
  /** Annual exempt amount, pence. */
  aeaPence: number;
  /** BADR lifetime limit, pence. */
  badrLimitPence: number;
}

export function computeCgt(i: CgtInput): CgtResult {
  if (!Number.isSafeInteger(i.gainPence) || i.gainPence < 0) throw new RangeError('gain must be a non-negative integer of pence');
  const rate = i.rates[i.assetType][i.band];
  const raw: Array<Omit<CgtPart, 'annual_exempt_amount_pence' | 'taxable_pence' | 'tax_micro_pence'>> = [];
  if (i.assetType === 'business_asset_disposal') {
    const within = Math.min(i.gainPence, i.badrLimitPence);
    raw.push({ description: 'badr_within_lifetime_limit', gain_pence: within, rate });
    if (i.gainPence > within) raw.push({ description: 'above_badr_lifetime_limit', gain_pence: i.gainPence - within, rate: i.rates.other_assets[i.band] });
  } else {
    raw.push({ description: 'gain', gain_pence: i.gainPence, rate });
  }
  // AEA against the highest-rated part first (stable for equal rates).
  const order = raw.map((_, k) => k).sort((a, b) => raw[b]!.rate - raw[a]!.rate || a - b);
  let aeaLeft = i.aeaPence;
  const aeaOf = new Array<number>(raw.length).fill(0);
  for (const k of order) {
    const use = Math.min(aeaLeft, raw[k]!.gain_pence);
    aeaOf[k] = use;
    aeaLeft -= use;
  }
  let totalMicro = 0n;
  const parts: CgtPart[] = raw.map((p, k) => {
    const taxable = p.gain_pence - aeaOf[k]!;
    const micro = BigInt(taxable) * BigInt(ratePpm(p.rate));
    totalMicro += micro;
    return { ...p, annual_exempt_amount_pence: aeaOf[k]!, taxable_pence: taxable, tax_micro_pence: micro };
  });
  const aeaUsed = aeaOf.reduce((a, b) => a + b, 0);
  return {
    gain_pence: i.gainPence,
    annual_exempt_amount_pence: aeaUsed,
    taxable_gain_pence: i.gainPence - aeaUsed,
    rate,
    tax_pence: Number(divRoundBig(totalMicro, BigInt(PPM), 'down')),
    parts,
  };
}
