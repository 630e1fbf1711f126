/** Response schemas of the example domain's routes (test-only; no spec document). */
import { calculateResponses } from './calculate.js';
import { anyOf, arr, constant, int, nullable, num, obj, oneOf, record, str, type ResponseSchemas } from '../../../src/contract/schema.js';

const item = obj({
  id: int(),
  title: str(),
  colour: oneOf(['red', 'green', 'blue']),
  count: int(),
  markers: record(str(), 'field -> marker (none on most items)'),
  location: nullable(obj({ latitude: num(), longitude: num() })),
  distance_km: num('with lat/lng'),
}, { optional: ['distance_km'] });

const counts = obj({ basis: constant('counts'), item_count: int(), by_colour: record(int(), 'colour -> items'), average: nullable(obj({ count: num() })) });
const totals = obj({ basis: constant('totals'), item_count: int(), total_count: int() });

const META = ['caveat', 'warning'];
export const responses: ResponseSchemas = {
  'example.items': { data: arr(item), meta: META, source: 'test/support/example-domain (test-only)' },
  'example.item': { data: item, meta: META, source: 'test/support/example-domain (test-only)' },
  'example.summary': { data: anyOf(counts, totals), meta: META, source: 'test/support/example-domain (test-only)' },
  'example.notes': { data: arr(obj({ id: int() })), meta: ['note'], source: 'test/support/example-domain (test-only)' },
  ...calculateResponses,
};
