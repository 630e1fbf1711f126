/** Response schemas of the example domain's mirror routes (routes-records.ts). */
import { arr, int, obj, oneOf, str, type ResponseSchemas } from '../../../src/contract/schema.js';

const record = obj({ id: int(), colour: oneOf(['red', 'green', 'blue']), count: int(), recorded_on: str(), title: str() });
const META = ['licence', 'source', 'source_url'];
export const recordsResponses: ResponseSchemas = {
  'example.records': { data: arr(record), meta: META, source: 'test/support/example-domain (test-only)' },
  'example.events': { data: arr(record), meta: META, source: 'test/support/example-domain (test-only)' },
};
