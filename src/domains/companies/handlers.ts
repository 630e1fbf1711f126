/** Local handlers of the /v1/companies register and PSC routes (the financial routes live in their own files). */
export { companySearch, companyList, companyGet, companyStatistics, companyGeography, sectorAnalytics, filingStatus } from './register.js';
export { companyPsc, companyPscChanges, companyNetwork, companyTimeline } from './psc.js';
export { sicCodes, sicCodeGet } from './sic.js';
