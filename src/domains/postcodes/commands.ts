/** `publicdata postcode LS8 3BS`, `publicdata postcode --near 53.82,-1.51`, `publicdata postcode --batch` (lookups). */
import { Option, type Command } from 'commander';
import { renameSync, writeFileSync } from 'node:fs';
import { ApiError } from '../../contract/errors.js';
import type { RouteCall } from '../../contract/types.js';
import type { CommandKit, CommandRun } from '../command-kit.js';
import { areaSections } from '../manifest.js';
import { wrapWords } from '../../output/wrap.js';

/**
 * `area … --html FILE`: the area page of `serve` (src/pages/) as one self-contained file, the answers
 * embedded: the area call as given, then the map's point routes (crime street, schools, food hygiene, the
 * road safety section's collisions), each through the command's own execute. Written to a temporary file
 * then renamed: never half a file. docs/serve.md "Pages".
 */
async function writeHtml(call: RouteCall, file: string, run: CommandRun): Promise<number> {
  const { areaDocument, renderAreaHtml } = await import('../../pages/area-html.js');
  const qs = new URLSearchParams(Object.entries(call.query).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]])) as [string, string][]);
  const areaPath = `${call.path}${String(qs) ? `?${qs}` : ''}`;
  let doc;
  try {
    doc = await areaDocument(async (p) => {
      if (p === areaPath) {
        const r = await run.execute(call);
        return { status: r.status, body: r.envelope };
      }
      const u = new URL(p, 'http://publicdata.invalid');
      const r = await run.execute({ method: 'GET', path: u.pathname, query: Object.fromEntries(u.searchParams) });
      return { status: r.status, body: r.envelope };
    }, areaPath);
  } catch (e) {
    const body = (e as { body?: { error?: { code?: string; message?: string } } }).body;
    return run.fail(new ApiError((e as { status?: number }).status ?? 500, body?.error?.code ?? 'internal_error', body?.error?.message ?? (e as Error).message));
  }
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, renderAreaHtml(doc, `Written by publicdata area on ${new Date().toISOString().slice(0, 10)} from ${areaPath}`));
    renameSync(tmp, file);
  } catch (e) {
    return run.fail(new ApiError(400, 'usage_error', `Cannot write ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}.`));
  }
  return 0;
}

function prepare(call: RouteCall, opts: Record<string, unknown>): RouteCall {
  if (opts.batch) {
    // NDJSON lookup bodies on stdin, {"postcodes": [...]} per line: one envelope per line
    return { method: 'POST', path: '/v1/postcodes/lookup', query: {}, body: {} };
  }
  if (call.path === '/v1/postcodes' && call.query.lat === undefined) {
    throw new ApiError(400, 'usage_error', 'Give a postcode (publicdata postcode LS8 3BS) or --near LAT,LNG, or --batch with lookup bodies on stdin.');
  }
  if (call.path !== '/v1/postcodes' && opts.near !== undefined) throw new ApiError(400, 'usage_error', 'Give a postcode or --near, not both.');
  return call;
}

export function register(program: Command, kit: CommandKit): void {
  const group = program
    .command('postcode')
    .summary('UK postcodes (ONS Postcode Directory): one postcode, nearest postcodes, lookups')
    .description(kit.help(
      "Postcodes (/v1/postcodes, a publicdata extension): location, status and areas of every UK postcode from the ONS\n" +
        "Postcode Directory, offline after 'publicdata sync postcodes'.",
      ['publicdata postcode LS8 3BS', 'publicdata postcode --near 53.82,-1.51 --radius-km 0.3', 'publicdata postcode --batch < lookups.ndjson'],
    ));
  kit.route(group, {
    name: 'show',
    isDefault: true,
    route: 'postcodes.nearest',
    withArg: { param: 'postcode', route: 'postcodes.detail' },
    description: 'One postcode (any case and spacing), or the postcodes nearest --near LAT,LNG',
    args: [{ param: 'postcode', optional: true, variadic: true, description: 'a full postcode, e.g. LS8 3BS' }],
    batch: true,
    near: 'postcodes nearest this point, nearest first; with --radius-km (default 0.5, at most 2)',
    prepare: (call, opts) => prepare(call, opts),
    examples: ['publicdata postcode LS8 3BS', 'publicdata postcode --near 53.82,-1.51', 'echo \'{"postcodes":["LS8 3BS","SE1 2DL"]}\' | publicdata postcode --batch'],
  });
}

/** `publicdata area "LS8 3BS" [--radius-km 1] [--months 12] [--sections crime,schools]`. */
export function registerArea(program: Command, kit: CommandKit): void {
  const group = program
    .command('area')
    .summary("Area profile of a postcode: every domain's figures for the place, side by side")
    .description(kit.help(
      // the sections are the registry's declared ones (each domain's manifest `area`)
      wrapWords(
        `Area profile (/v1/area/{postcode}, a publicdata extension): ${areaSections().map((s) => s.name.replace(/_/g, ' ')).join(', ')} for one ` +
          "postcode, each from its own synced dataset; a section whose dataset is not synced names its sync command. Each section's " +
          "source paths run with 'publicdata api GET'.",
        78,
      ),
      ['publicdata area "LS8 3BS"', 'publicdata area LS8 3BS --radius-km 0.5 --sections crime,schools', 'publicdata area "LS8 3BS" --format json'],
    ));
  kit.route(group, {
    name: 'show',
    isDefault: true,
    route: 'area.profile',
    description: 'The area profile of one postcode (any case and spacing)',
    args: [{ param: 'postcode', variadic: true, description: 'a full postcode, e.g. "LS8 3BS"' }],
    flags: [{ flags: '--radius-km <km>', param: 'radius_km', description: 'circle around the postcode, 0.1 to 5 km (default 1)' }],
    extraOptions: [new Option('--html <file>', "write the area page (serve's /area/{postcode}) to FILE: one self-contained HTML file with the data in it")],
    prepare: (call, opts, run) => (typeof opts.html === 'string' ? writeHtml(call, opts.html, run) : call),
    examples: ['publicdata area "LS8 3BS"', 'publicdata area LS8 3BS --months 24 --sections crime', 'publicdata area "LS8 3BS" --html report.html'],
  });
}
