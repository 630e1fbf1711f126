/** Local handlers of the /v1/property routes, one module per dataset family. */
export { pricePaidSearch, pricePaidAddress, pricePaidStatistics, pricePaidGet } from './price-paid.js';
export { hpi, hpiRegions } from './hpi.js';
export { councilTax } from './council-tax.js';
export { designationList, designationGet } from './designations.js';
