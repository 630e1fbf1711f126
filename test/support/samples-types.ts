/** The shape of a domain's conformance samples (test/<domain>/samples.ts), gathered by route-samples.ts. */
import type { HttpMethod } from '../../src/contract/types.js';

export interface Sample {
  route: string;
  method: HttpMethod;
  /** Path with its query string, as `publicdata api` takes it. */
  path: string;
  body?: unknown;
}

/** Where the fixture mirror is built. */
export interface FixtureDirs {
  dataDir: string;
  /** `<dataDir>/mirror`. */
  mirror: string;
  cacheDir: string;
}

export interface DomainSamples {
  /** One valid call for every route of the domain (conformance fails when a route has none). */
  routes: Sample[];
  /** Calls that answer error envelopes (not found, validation, 422), compared the same way. */
  errors?: Sample[];
  /** The mirror datasets `build` syncs (every dataset the domain's handlers read). */
  datasets?: readonly string[];
  /** Sync those datasets into `dirs.mirror` from the test fixtures. */
  build?: (dirs: FixtureDirs) => Promise<void>;
}
