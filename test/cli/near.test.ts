/**
 * `--near`, parsed once by the command kit (commands/near.ts) for every point-and-radius command: LAT,LNG
 * gives the route's lat and lng; a postcode is placed through GET /v1/postcodes/{postcode} (run through the
 * command's execute; here a fake execute answers as that route would), and without that route a postcode
 * is refused with what --near takes. The commands are whatever the registry has (the program is walked for
 * every command with --near): the real domains' point commands, and with every real domain removed
 * (`npm run check:domains`) the example domain's `example items`.
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { ApiError } from '../../src/contract/errors.js';
import type { CallResult, RouteCall } from '../../src/contract/types.js';
import { createContext } from '../../src/create-context.js';
import { commandGroups, DOMAINS, matchRoute, ROUTES } from '../../src/registry.js';
import { latLngOf, looksLikePostcode, POSTCODE_ROUTE_PATH, resolveNear } from '../../commands/near.js';
import { isolatedEnv, json, runCli } from '../support/cli.js';
import { FakeLive } from '../support/fake-live.js';
import { fakeKey } from '../support/keys.js';

/** Every command with --near (its words after `publicdata`), found by walking the program. */
async function nearCommands(): Promise<string[][]> {
  const program = await buildProgram(createContext({
    io: { stdout: { write: () => true }, stderr: { write: () => true }, stdin: process.stdin, stdoutIsTTY: false, stderrIsTTY: false, columns: 100 },
    env: {},
    now: () => new Date(),
  }));
  const out: string[][] = [];
  const walk = (c: Command, words: string[]) => {
    for (const sub of c.commands) {
      const w = [...words, sub.name()];
      if (sub.options.some((o) => o.long === '--near')) out.push(w);
      walk(sub, w);
    }
  };
  walk(program, []);
  return out;
}

const NEAR_COMMANDS = await nearCommands();
/** The routes with a lat parameter (a point and radius search; the nearest postcodes' is required); each must have a command with --near. */
const POINT_PATHS = ROUTES.filter((r) => r.query?.some((q) => q.name === 'lat')).map((r) => r.path);
/** it.each rows: the command as typed, and its words. */
const NEAR_ROWS = NEAR_COMMANDS.map((w) => [w.join(' '), w] as const);
/** Whether the registry has the postcode lookup --near POSTCODE goes through. */
const POSTCODES = ROUTES.some((r) => r.method === 'GET' && r.path === POSTCODE_ROUTE_PATH);

async function callOf(words: string[]): Promise<RouteCall> {
  let call: RouteCall | undefined;
  const r = await runCli([...words, '--near', '53.8,-1.55', '--radius-km', '0.5'], { runCall: async (c) => { call = c; return 0; } });
  expect(r.code, r.stderr).toBe(0);
  return call!;
}

const never = async (): Promise<CallResult> => {
  throw new Error('no call may be made');
};

async function errorOf(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
}

describe('--near LAT,LNG', () => {
  it('two parts, spaces trimmed, are the lat and lng as typed (the route checks the numbers)', async () => {
    expect(await resolveNear(' 53.80, -1.55', { postcodes: true, execute: never })).toEqual({ lat: '53.80', lng: '-1.55' });
    expect(latLngOf('abc,def')).toEqual({ lat: 'abc', lng: 'def' });
    expect(latLngOf('53.80')).toBeUndefined();
    expect(latLngOf('1,2,3')).toBeUndefined();
    expect(latLngOf('53.8,')).toBeUndefined();
  });

  it.each(['53.80', '1,2,3', ',', 'Leeds', 'LS8', '   '])('%j is invalid_parameter naming --near, with no call made', async (v) => {
    for (const postcodes of [false, true]) {
      const e = await errorOf(resolveNear(v, { postcodes, execute: never }));
      expect([e.status, e.code]).toEqual([400, 'invalid_parameter']);
      expect(e.message).toMatch(/^--near takes a latitude and a longitude, LAT,LNG \(e\.g\. 53\.80,-1\.55\)/);
      expect(e.message).toContain(`got '${v}'`);
      expect(e.message.includes('postcode')).toBe(postcodes);
    }
  });

  it('the walk finds the commands (the example domain\'s at least)', () => {
    expect(NEAR_COMMANDS).toContainEqual(['example', 'items']);
    expect(POINT_PATHS).toContain('/v1/example/items');
  });

  it.each(NEAR_ROWS)('%s --near 53.8,-1.55 --radius-km 0.5 calls its point route with lat, lng and radius_km', async (_c, words) => {
    const call = await callOf([...words]);
    expect(call).toMatchObject({ method: 'GET', query: { lat: '53.8', lng: '-1.55', radius_km: '0.5' } });
    const route = matchRoute('GET', call.path).route;
    expect(POINT_PATHS).toContain(route.path);
    // a command calls its own domain's route (the domain whose command group it sits in)
    expect(commandGroups(DOMAINS.find((d) => d.name === route.domain)!).map((g) => g.name)).toContain(words[0]);
  });

  it('every route with a lat parameter has a command with --near, and each such command calls a different one', async () => {
    const called = await Promise.all(NEAR_COMMANDS.map(async (w) => matchRoute('GET', (await callOf(w)).path).route.path));
    expect(new Set(called)).toEqual(new Set(POINT_PATHS));
    expect(called).toHaveLength(new Set(called).size);
  });

  it.each(NEAR_ROWS)('%s --near 95,-1: the route refuses the latitude, named --near (exit 2)', async (_c, words) => {
    const r = await runCli([...words, '--near', '95,-1', '--source', 'local', '--format', 'json'], { env: isolatedEnv() });
    expect(r.code).toBe(2);
    expect(json(r).error).toMatchObject({ code: 'invalid_parameter', message: expect.stringMatching(/^Invalid option --near: must be at most (90|61)\.$/) });
  });
});

describe('--near POSTCODE', () => {
  const located = (lat: number | null, lng: number | null) => async (c: RouteCall): Promise<CallResult> => {
    calls.push(c);
    return {
      status: 200,
      source: 'local',
      envelope: {
        data: { postcode: 'LS8 3BS', location: lat === null ? null : { latitude: lat, longitude: lng, easting: 431300, northing: 435900, quality: 1 } },
        meta: { api_version: 'v1' },
      },
    };
  };
  let calls: RouteCall[] = [];

  it('a full postcode in any case and spacing looks like one; a prefix or a place name does not', () => {
    for (const v of ['LS8 3BS', 'ls83bs', ' LS8  3BS ', 'SW1A 1AA', 'M1 1AE', 'B33 8TH', 'CR2 6XH', 'DN55 1PT']) expect(looksLikePostcode(v), v).toBe(true);
    for (const v of ['LS8', 'LS8 3', 'Leeds', '53.8', 'LS8 3B', '8LS 3BS']) expect(looksLikePostcode(v), v).toBe(false);
  });

  it("is the postcode's location, read through GET /v1/postcodes/{postcode}", async () => {
    calls = [];
    expect(await resolveNear('ls8 3bs', { postcodes: true, execute: located(53.8247, -1.5098) })).toEqual({ lat: '53.8247', lng: '-1.5098' });
    expect(calls).toEqual([{ method: 'GET', path: '/v1/postcodes/ls8%203bs', query: {} }]);
  });

  it('a postcode without a grid reference (location null) is a clear 400', async () => {
    const e = await errorOf(resolveNear('LS8 3BS', { postcodes: true, execute: located(null, null) }));
    expect([e.status, e.code]).toEqual([400, 'invalid_parameter']);
    expect(e.message).toBe('--near: postcode LS8 3BS has no location in the postcode directory (no grid reference); give --near LAT,LNG instead.');
  });

  it("a postcode the directory does not hold is the lookup's own 404, passed through", async () => {
    const notFound = async (): Promise<CallResult> => ({
      status: 404,
      source: 'local',
      envelope: { error: { code: 'not_found', message: "Postcode 'ZZ9 9ZZ' is not in the directory (ONSPD_AUG_2026).", documentation_url: 'https://example.invalid/errors' } },
    });
    const e = await errorOf(resolveNear('ZZ9 9ZZ', { postcodes: true, execute: notFound }));
    expect([e.status, e.code, e.message]).toEqual([404, 'not_found', "Postcode 'ZZ9 9ZZ' is not in the directory (ONSPD_AUG_2026)."]);
  });

  it('without the postcode route: invalid_parameter saying what --near takes, with no call made', async () => {
    const e = await errorOf(resolveNear('LS8 3BS', { postcodes: false, execute: never }));
    expect([e.status, e.code]).toEqual([400, 'invalid_parameter']);
    expect(e.message).toBe(
      "--near takes a latitude and a longitude, LAT,LNG (e.g. 53.80,-1.55), or a postcode once `publicdata sync postcodes` has run; this publicdata has no postcode lookup, so 'LS8 3BS' cannot be placed.",
    );
  });

  // With the postcode route registered and nothing synced, the postcode is looked up locally whatever
  // --source says: the mirror's not-synced answer, and no live request. Without the route (every real
  // domain removed: npm run check:domains) the command refuses the postcode with what --near takes, and no
  // request either: this registry decides which of the two runs, and each runs in one of the two checks.
  it.each(NEAR_ROWS)(`%s --near "LS8 3BS" under --source live, ${POSTCODES ? 'postcodes not synced: the local not-synced error' : 'no postcode route: what --near takes'}, no request`, async (_c, words) => {
    const fake = new FakeLive();
    const r = await runCli([...words, '--near', 'LS8 3BS', '--source', 'live', '--format', 'json'], {
      env: isolatedEnv({ PUBLICDATA_API_KEY: fakeKey('test', 'nearpostcode00000000000000000000') }),
      liveBackend: fake.factory,
    });
    expect(fake.requests).toEqual([]);
    if (POSTCODES) {
      expect(json(r).error.code).toBe('dataset_not_synced');
      expect(json(r).error.message).toContain('publicdata sync postcodes');
      expect(r.code).toBe(1); // README exit codes: dataset_not_synced is 1
    } else {
      expect(json(r).error.code).toBe('invalid_parameter');
      expect(json(r).error.message).toContain("this publicdata has no postcode lookup, so 'LS8 3BS' cannot be placed.");
      expect(r.code).toBe(2); // README exit codes: invalid_parameter is 2
    }
  });
});
