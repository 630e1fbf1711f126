/**
 * `--near`, the one option of every point-and-radius command (crime, food hygiene, schools, traffic count
 * points): parsed here once, for every command the kit builds with `near` (route-command.ts), into the
 * route's `lat` and `lng` query values. The route's point parameters (src/contract/point.ts) then check the
 * numbers and their ranges, and an error names `--near` (the kit relabels lat and lng).
 *
 * It takes `LAT,LNG`, or a UK postcode: the postcode's own location, read by running
 * `GET /v1/postcodes/{postcode}` through the command's own execute (the postcodes dataset: `publicdata sync
 * postcodes`). Without that route in the registry a postcode is refused with what --near takes. A postcode
 * the directory does not hold is that route's 404; one without a grid reference (location null) is a 400.
 */
import { ApiError } from '../src/contract/errors.js';
import type { CallResult, RouteCall } from '../src/contract/types.js';

/** The route a postcode is resolved through (spec 5-places.md). */
export const POSTCODE_ROUTE_PATH = '/v1/postcodes/{postcode}';

/**
 * A full UK postcode in any case and spacing (`LS8 3BS`, `ls83bs`, `SW1A 1AA`): outward code (area letters,
 * district digit, an optional digit or letter), inward code (a digit and two letters). What is not a full
 * postcode here is not looked up (a prefix has no one location).
 */
const POSTCODE_RE = /^[A-Za-z]{1,2}\d[A-Za-z\d]?\s*\d[A-Za-z]{2}$/;

export function looksLikePostcode(v: string): boolean {
  return POSTCODE_RE.test(v.trim());
}

const EXAMPLE = 'e.g. 53.80,-1.55';

/**
 * `LAT,LNG` as the route's `lat` and `lng` query values (two non-empty parts: the route checks they are
 * numbers in range), or undefined when the value is not of that shape.
 */
export function latLngOf(near: string): { lat: string; lng: string } | undefined {
  const parts = near.split(',').map((s) => s.trim());
  if (parts.length !== 2 || parts.some((p) => p === '')) return undefined;
  return { lat: parts[0]!, lng: parts[1]! };
}

export interface NearResolver {
  /** Whether the registry has the postcode route (GET /v1/postcodes/{postcode}). */
  postcodes: boolean;
  /** Runs a call as the command would (its --source, --max-credits). */
  execute(call: RouteCall): Promise<CallResult>;
}

/** The `lat` and `lng` a `--near` value stands for; an ApiError (invalid_parameter, or the lookup's error) when none. */
export async function resolveNear(near: string, r: NearResolver): Promise<{ lat: string; lng: string }> {
  const point = latLngOf(near);
  if (point) return point;
  if (!looksLikePostcode(near)) {
    const or = r.postcodes ? ' or a UK postcode (e.g. LS8 3BS)' : '';
    throw new ApiError(400, 'invalid_parameter', `--near takes a latitude and a longitude, LAT,LNG (${EXAMPLE})${or}; got '${near}'.`);
  }
  if (!r.postcodes) {
    throw new ApiError(
      400,
      'invalid_parameter',
      `--near takes a latitude and a longitude, LAT,LNG (${EXAMPLE}), or a postcode once \`publicdata sync postcodes\` has run; ` +
        `this publicdata has no postcode lookup, so '${near}' cannot be placed.`,
    );
  }
  const postcode = near.trim();
  const res = await r.execute({ method: 'GET', path: POSTCODE_ROUTE_PATH.replace('{postcode}', encodeURIComponent(postcode)), query: {} });
  if ('error' in res.envelope) {
    const e = res.envelope.error;
    throw new ApiError(res.status, e.code, e.message, e.details);
  }
  const data = res.envelope.data as { postcode?: unknown; location?: { latitude?: unknown; longitude?: unknown } | null } | null;
  const loc = data?.location;
  if (!loc || typeof loc.latitude !== 'number' || typeof loc.longitude !== 'number') {
    const name = typeof data?.postcode === 'string' ? data.postcode : postcode;
    throw new ApiError(
      400,
      'invalid_parameter',
      `--near: postcode ${name} has no location in the postcode directory (no grid reference); give --near LAT,LNG instead.`,
    );
  }
  return { lat: String(loc.latitude), lng: String(loc.longitude) };
}
