/**
 * The area section machinery below the domains (src/domains/area-section.ts), on no real domain: `Calls`
 * (each sub-call's request path recorded as `source`, every page of a list, `dataset_not_synced` as
 * NotSynced with the sync command the route named, another error as itself, the newest `as_of`, map layers
 * without duplicates), and a section declared by the test-only example domain built through its own route
 * (test/support/area-section.ts), its figures counted here from the invented items by the haversine.
 */
import '../support/example-domain/index.js';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/contract/errors.js';
import type { CallResult, HandlerContext, RouteCall } from '../../src/contract/types.js';
import { Calls, NotSynced, monthMinus, lastDay, sparkline } from '../../src/domains/area-section.js';
import { areaSections } from '../../src/domains/manifest.js';
import { buildSection, place } from '../support/area-section.js';
import { ITEMS } from '../support/example-domain/data.js';
import { handlerCtx } from '../support/handler-context.js';

function ctxAnswering(answer: (c: RouteCall) => Omit<CallResult, 'source' | 'envelope'> & { envelope: unknown }): { ctx: HandlerContext; asked: RouteCall[] } {
  const asked: RouteCall[] = [];
  return { ctx: { ...handlerCtx(), call: async (c) => (asked.push(c), { source: 'local', ...answer(c) } as CallResult) }, asked };
}

describe('Calls', () => {
  it('records each request path, reads every page, keeps the newest as_of', async () => {
    const { ctx, asked } = ctxAnswering((c) => {
      const page = Number(c.query.page);
      return { status: 200, envelope: { data: [{ page }], pagination: { total_pages: 3 }, meta: { as_of: `2026-0${page}-01` } } };
    });
    const calls = new Calls(ctx);
    const { records } = await calls.all('/v1/x/list', { a: 'b c', n: 2 });
    expect(records).toEqual([{ page: 1 }, { page: 2 }, { page: 3 }]);
    expect(calls.source).toEqual(['/v1/x/list?a=b+c&n=2&per_page=100&page=1', '/v1/x/list?a=b+c&n=2&per_page=100&page=2', '/v1/x/list?a=b+c&n=2&per_page=100&page=3']);
    expect(asked.map((c) => c.query.page)).toEqual(['1', '2', '3']);
    expect(calls.asOf).toBe('2026-03-01');
    await calls.run('POST', '/v1/x/calc', {}, { gross: 1 });
    expect(calls.source.at(-1)).toBe('POST /v1/x/calc {"gross":1}');
  });

  it("dataset_not_synced is NotSynced with the route's sync command; another error is itself", async () => {
    const notSynced = new Calls(ctxAnswering(() => ({ status: 503, envelope: { error: { code: 'dataset_not_synced', message: "No data: run 'publicdata sync thing-x' (12 MB)." } } })).ctx);
    await expect(notSynced.get('/v1/x')).rejects.toEqual(new NotSynced('publicdata sync thing-x'));
    const missing = new Calls(ctxAnswering(() => ({ status: 404, envelope: { error: { code: 'not_found', message: 'none' } } })).ctx);
    const e = await missing.get('/v1/x').catch((x) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect([e.status, e.code]).toEqual([404, 'not_found']);
  });

  it('map layers: one per name, each path once', () => {
    const calls = new Calls(handlerCtx());
    calls.mapLayer('a', '/v1/a', { y: 1 });
    calls.mapLayer('a', '/v1/a', { y: 2 }, true);
    calls.mapLayer('a', '/v1/a', { y: 1 });
    calls.mapLayer('b', '/v1/b');
    expect(calls.map).toEqual([{ layer: 'a', paths: ['/v1/a?y=1', '/v1/a?y=2'] }, { layer: 'b', paths: ['/v1/b'] }]);
  });

  it('the helpers: months back across a year, the last day of a month, a sparkline from zero to the maximum', () => {
    expect([monthMinus('2025-05', 11), monthMinus('2025-01', 1), monthMinus('2024-12', 0)]).toEqual(['2024-06', '2024-12', '2024-12']);
    expect([lastDay('2024-02'), lastDay('2025-02'), lastDay('2025-12')]).toEqual(['2024-02-29', '2025-02-28', '2025-12-31']);
    expect(sparkline([0, 7, 14])).toBe('▁▅█'); // 7 / 14 x 7 = 3.5, rounded to 4: the fifth bar
    expect(sparkline([0, 0])).toBe('▁▁');
  });
});

describe("the example domain's area section", () => {
  it('is declared, after the real sections by its order', () => {
    expect(areaSections().at(-1)!.name).toBe('example');
  });

  it('the items within 20 km of 51.205, -0.795, by colour, through its own route', async () => {
    const at = { latitude: 51.205, longitude: -0.795 };
    const km = (b: { latitude: number; longitude: number }) => {
      const r = Math.PI / 180;
      const h = Math.sin(((b.latitude - at.latitude) * r) / 2) ** 2 + Math.cos(at.latitude * r) * Math.cos(b.latitude * r) * Math.sin(((b.longitude - at.longitude) * r) / 2) ** 2;
      return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
    };
    // item i sits at 51 + i/100, -1 + i/100 (none for i % 4 === 0): no item within 100 m of the 20 km circle
    const near = ITEMS.filter((i) => i.location && km(i.location) <= 20);
    expect(ITEMS.filter((i) => i.location && Math.abs(km(i.location) - 20) < 0.1)).toEqual([]);
    expect(near.length).toBeGreaterThan(0);
    const { answer, source, map, lines } = await buildSection('example', place({ lat: at.latitude, lng: at.longitude, radius: 20 }), '/nonexistent');
    const colours: Record<string, number> = {};
    for (const i of near) colours[i.colour] = (colours[i.colour] ?? 0) + 1;
    expect(answer).toEqual({ status: 'ok', radius_km: 20, count: near.length, by_colour: colours, nearest: [...near].sort((a, b) => km(a.location!) - km(b.location!))[0]!.id });
    expect(source).toEqual(['/v1/example/items?lat=51.205&lng=-0.795&radius_km=20&per_page=100&page=1']);
    expect(map).toEqual([{ layer: 'example', paths: ['/v1/example/items?lat=51.205&lng=-0.795&radius_km=20'] }]);
    expect((await lines(80))[0]).toMatch(new RegExp(`^ {2}items within 20 km\\s+${near.length}$`));
    expect((await buildSection('example', place({}), '/nonexistent')).answer.status).toBe('no_location');
  });
});
