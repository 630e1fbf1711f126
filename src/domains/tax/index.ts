/** The tax domain: calculators over shipped reference data (data/tax); no mirror datasets. */
import { taxRoutes } from '../../contract/routes/tax.js';
import type { DomainManifest, LocalSpec } from '../manifest.js';

const personal = () => import('./handlers-personal.js');
const business = () => import('./handlers-business.js');
const vatReturn = () => import('./vat-return/handler.js');
const renderers = () => import('./renderers.js');

type Module<M> = () => Promise<M>;
/** A handler exported by a lazily imported module. */
function from<M>(mod: Module<M>, name: keyof M & string): LocalSpec {
  return { handler: () => mod().then((m) => m[name] as never) };
}
/** The same handler for `<id>` (current tax year) and `<id>.year` (`/{tax_year}` form). */
function byYear<M>(id: string, mod: Module<M>, name: keyof M & string): Record<string, LocalSpec> {
  const spec = from(mod, name);
  return { [id]: spec, [`${id}.year`]: spec };
}

export const manifest: DomainManifest = {
  name: 'tax',
  routes: taxRoutes,
  local: {
    'tax.years.list': from(personal, 'taxYearsList'),
    'tax.years.current': from(personal, 'taxYearsCurrent'),
    'tax.years.get': from(personal, 'taxYearsGet'),
    ...byYear('tax.income.bands', personal, 'incomeBands'),
    'tax.income.calculate': from(personal, 'incomeCalculate'),
    ...byYear('tax.ni.thresholds', personal, 'niThresholds'),
    ...byYear('tax.ni.categories', personal, 'niCategories'),
    'tax.ni.calculate': from(personal, 'niCalculate'),
    'tax.take-home.calculate': from(personal, 'takeHome'),
    'tax.compare': from(personal, 'compare'),
    'tax.employer-cost.calculate': from(personal, 'employerCost'),
    ...byYear('tax.vat.rates', business, 'vatRates'),
    'tax.vat.flat-rate-percentages': from(business, 'flatRatePercentages'),
    'tax.vat.calculate': from(business, 'vatCalculate'),
    'tax.vat.return.calculate': from(vatReturn, 'vatReturnCalculate'),
    ...byYear('tax.cgt.rates', business, 'cgtRates'),
    ...byYear('tax.cgt.allowances', business, 'cgtAllowances'),
    'tax.cgt.calculate': from(business, 'cgtCalculate'),
    ...byYear('tax.dividends.rates', business, 'dividendRates'),
    'tax.dividends.calculate': from(business, 'dividendCalculate'),
    ...byYear('tax.student-loan.thresholds', personal, 'studentLoanThresholds'),
    'tax.student-loan.calculate': from(personal, 'studentLoanCalculate'),
    ...byYear('tax.pension.allowances', personal, 'pensionAllowances'),
    ...byYear('tax.corporation.rates', business, 'corporationRates'),
    'tax.corporation.calculate': from(business, 'corporationCalculate'),
  },
  datasets: [],
  renderers: {
    'tax.take-home.calculate': () => renderers().then((m) => m.takeHome),
    'tax.take-home.sweep': () => renderers().then((m) => [m.sweepChart, m.sweepTable]),
    'tax.compare': () => renderers().then((m) => m.compare),
    'tax.vat.return.calculate': () => renderers().then((m) => m.vatReturn),
  },
  documents: {
    'tax.vat.return.calculate': () => vatReturn().then((m) => m.vatReturnDocument),
  },
};
