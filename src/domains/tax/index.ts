/** The tax domain: calculators over shipped reference data (data/tax); no mirror datasets. */
import { taxRoutes } from './routes.js';
import { declareDomain, type DomainManifest, type LocalSpec } from '../manifest.js';

// Personal tax: one handler file per route family (src/domains/tax/personal/).
const years = () => import('./personal/years.js');
const income = () => import('./personal/income.js');
const ni = () => import('./personal/ni.js');
const takeHome = () => import('./personal/take-home.js');
const compare = () => import('./personal/compare.js');
const employerCost = () => import('./personal/employer-cost.js');
const studentLoan = () => import('./personal/student-loan.js');
const pension = () => import('./personal/pension.js');
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

export const manifest: DomainManifest = declareDomain({
  name: 'tax',
  routes: taxRoutes,
  local: {
    'tax.years.list': from(years, 'taxYearsList'),
    'tax.years.current': from(years, 'taxYearsCurrent'),
    'tax.years.get': from(years, 'taxYearsGet'),
    ...byYear('tax.income.bands', income, 'incomeBands'),
    'tax.income.calculate': from(income, 'incomeCalculate'),
    ...byYear('tax.ni.thresholds', ni, 'niThresholds'),
    ...byYear('tax.ni.categories', ni, 'niCategories'),
    'tax.ni.calculate': from(ni, 'niCalculate'),
    'tax.take-home.calculate': from(takeHome, 'takeHome'),
    'tax.compare': from(compare, 'compare'),
    'tax.employer-cost.calculate': from(employerCost, 'employerCost'),
    ...byYear('tax.vat.rates', business, 'vatRates'),
    'tax.vat.flat-rate-percentages': from(business, 'flatRatePercentages'),
    'tax.vat.calculate': from(business, 'vatCalculate'),
    'tax.vat.return.calculate': from(vatReturn, 'vatReturnCalculate'),
    ...byYear('tax.cgt.rates', business, 'cgtRates'),
    ...byYear('tax.cgt.allowances', business, 'cgtAllowances'),
    'tax.cgt.calculate': from(business, 'cgtCalculate'),
    ...byYear('tax.dividends.rates', business, 'dividendRates'),
    'tax.dividends.calculate': from(business, 'dividendCalculate'),
    ...byYear('tax.student-loan.thresholds', studentLoan, 'studentLoanThresholds'),
    'tax.student-loan.calculate': from(studentLoan, 'studentLoanCalculate'),
    ...byYear('tax.pension.allowances', pension, 'pensionAllowances'),
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
  responses: () => import('./schemas.js').then((m) => m.responses),
  commands: { name: 'tax', load: () => import('./commands.js').then((m) => m.register) },
});
