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

/** An exported lake as a domain's checks read it (hyparquet: an independent Parquet reader). */
export interface LakeView {
  /** Every row of a table, partition values added from the paths (as text). */
  rows(dataset: string, table: string): Promise<Array<Record<string, unknown>>>;
  /** The table's .parquet files with the Hive values of their paths. */
  files(dataset: string, table: string): Array<{ file: string; values: Record<string, string> }>;
  /** The manifest's column names of a table. */
  columns(dataset: string, table: string): string[];
  /** Each file of the table holds its rows in order of `cols` (as text; nulls last). */
  expectSorted(dataset: string, table: string, cols: readonly string[]): Promise<void>;
}

/** Calls on the fixture mirror for a domain's wide shape walk (test/server/conformance.test.ts). */
export interface WideApi {
  /** One local call, expected 200; its answer is validated against the route's published schema. */
  call(route: string, path: string, body?: unknown): Promise<any>;
  /** Every page of a list, 100 a page, each validated; the records. */
  allPages(route: string, path: string): Promise<any[]>;
  /** The schema misfits of an envelope (empty when it fits): to show the schemas bite. */
  validate(route: string, envelope: unknown): string[];
}

/** What the `mirror export` tests (test/mirror/export-*.test.ts) need of a domain. */
export interface DomainLake {
  /** Every dataset of the domain, built into the export tests' mirror. */
  datasets: readonly string[];
  /** Build them into `mirror` (`src`: the domain's scratch folder); default: the domain's fixture `build`. */
  build?: (dirs: { mirror: string; src: string }) => Promise<void>;
  /** Checks of the exported lake against the fixture files, counted independently of the exporter. */
  check?: (lake: LakeView) => Promise<void>;
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
  /** The export tests' build and checks (a domain with mirror datasets has one). */
  lake?: DomainLake;
  /**
   * Beyond one sample per route: walk every record the fixture mirror answers (all pages, every listed
   * record's detail), each answer validated against its published schema, so a blank cell of a real file
   * the schema does not allow fails. Assert here that the walk was not vacuous.
   */
  wide?: (api: WideApi) => Promise<void>;
  /**
   * The domain's command examples (as its --help declares them) that the fixture mirror cannot answer, by
   * their words after `publicdata` (without `--format`): the exit code and error code each answers with,
   * and why. test/cli/commands-80.test.ts runs every example: these fail exactly so, every other one
   * answers (exit 0) and fits 80 columns.
   */
  unansweredExamples?: Record<string, UnansweredExample>;
}

/** How a command example the fixture mirror cannot answer fails there (`DomainSamples.unansweredExamples`). */
export interface UnansweredExample {
  /** Its exit code. */
  code: number;
  /** The error code its one line on stderr names (`error not_found: …`). */
  error: string;
  /** What the fixture mirror lacks. */
  why: string;
}
