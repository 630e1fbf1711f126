/** The tax domain: calculators over shipped reference data (data/tax); no mirror datasets. */
import { taxRoutes } from './routes.js';
import { taxRegionResolver } from './regions.js';
import { declareDomain, handlers, type DomainManifest, type LocalSpec } from '../manifest.js';

// Personal tax: one handler file per route family (src/domains/tax/personal/). Calculators over shipped
// data: no mirror dataset read.
const years = handlers(() => import('./personal/years.js'));
const income = handlers(() => import('./personal/income.js'));
const ni = handlers(() => import('./personal/ni.js'));
const takeHome = handlers(() => import('./personal/take-home.js'));
const compare = handlers(() => import('./personal/compare.js'));
const employerCost = handlers(() => import('./personal/employer-cost.js'));
const studentLoan = handlers(() => import('./personal/student-loan.js'));
const pension = handlers(() => import('./personal/pension.js'));
const business = handlers(() => import('./handlers-business.js'));
const vatReturnModule = () => import('./vat-return/handler.js');
const vatReturn = handlers(vatReturnModule);
const renderers = () => import('./renderers.js');

/** The same route under `<id>` (current tax year) and `<id>.year` (`/{tax_year}` form). */
const byYear = (id: string, spec: LocalSpec): Record<string, LocalSpec> => ({ [id]: spec, [`${id}.year`]: spec });

export const manifest: DomainManifest = declareDomain({
  name: 'tax',
  routes: taxRoutes,
  vocabularies: { region: taxRegionResolver },
  local: {
    'tax.years.list': years('taxYearsList'),
    'tax.years.current': years('taxYearsCurrent'),
    'tax.years.get': years('taxYearsGet'),
    ...byYear('tax.income.bands', income('incomeBands')),
    'tax.income.calculate': income('incomeCalculate'),
    ...byYear('tax.ni.thresholds', ni('niThresholds')),
    ...byYear('tax.ni.categories', ni('niCategories')),
    'tax.ni.calculate': ni('niCalculate'),
    'tax.take-home.calculate': takeHome('takeHome'),
    'tax.compare': compare('compare'),
    'tax.employer-cost.calculate': employerCost('employerCost'),
    ...byYear('tax.vat.rates', business('vatRates')),
    'tax.vat.flat-rate-percentages': business('flatRatePercentages'),
    'tax.vat.calculate': business('vatCalculate'),
    'tax.vat.return.calculate': vatReturn('vatReturnCalculate'),
    ...byYear('tax.cgt.rates', business('cgtRates')),
    ...byYear('tax.cgt.allowances', business('cgtAllowances')),
    'tax.cgt.calculate': business('cgtCalculate'),
    ...byYear('tax.dividends.rates', business('dividendRates')),
    'tax.dividends.calculate': business('dividendCalculate'),
    ...byYear('tax.student-loan.thresholds', studentLoan('studentLoanThresholds')),
    'tax.student-loan.calculate': studentLoan('studentLoanCalculate'),
    ...byYear('tax.pension.allowances', pension('pensionAllowances')),
    ...byYear('tax.corporation.rates', business('corporationRates')),
    'tax.corporation.calculate': business('corporationCalculate'),
  },
  datasets: [],
  renderers: {
    'tax.take-home.calculate': () => renderers().then((m) => m.takeHome),
    'tax.take-home.sweep': () => renderers().then((m) => [m.sweepChart, m.sweepTable]),
    'tax.compare': () => renderers().then((m) => m.compare),
    'tax.vat.return.calculate': () => renderers().then((m) => m.vatReturn),
  },
  documents: {
    'tax.vat.return.calculate': () => vatReturnModule().then((m) => m.vatReturnDocument),
  },
  responses: () => import('./schemas.js').then((m) => m.responses),
  commands: { name: 'tax', load: () => import('./commands.js').then((m) => m.register) },
});
