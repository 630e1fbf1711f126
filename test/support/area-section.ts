/**
 * One area section built in process, as the area route builds it (src/domains/postcodes/area.ts), without
 * the postcodes domain: the section the registry declares under `name`, its own domain's routes run
 * through a handler context's `call` (the local backend on `mirrorDir`), for a place written by hand (the
 * postcode record's fields the section reads, the point, the circle and months). A domain's section test
 * (test/<domain>/area-section.test.ts) uses it with its own fixture mirror, so it needs no other domain.
 */
import { callLocal } from '../../src/backends/local.js';
import type { HandlerContext } from '../../src/contract/types.js';
import { Calls, NotSynced, type Place, type SectionAnswer } from '../../src/domains/area-section.js';
import { areaSections } from '../../src/domains/manifest.js';
import '../../src/registry.js';
import { handlerCtx } from './handler-context.js';

export interface Built {
  /** The section's answer (or `not_synced` with its sync command), as the area route puts it in `sections`. */
  answer: SectionAnswer;
  /** The request paths it ran (the area answer's `source`). */
  source: string[];
  /** Its map layers (the area answer's `map`). */
  map: Calls['map'];
  /** The terminal lines of an ok answer, at `width`. */
  lines: (width?: number) => Promise<string[]>;
}

export const place = (p: Partial<Place> & { pc?: Record<string, unknown> }): Place => ({
  pc: {}, lat: null, lng: null, radius: 1, months: 12, today: '2026-11-21', country: null, ...p,
});

export async function buildSection(name: string, p: Place, mirrorDir: string): Promise<Built> {
  const decl = areaSections().find((s) => s.name === name);
  if (!decl) throw new Error(`no area section '${name}' is declared`);
  const base = handlerCtx(undefined, { mirrorDir });
  const ctx: HandlerContext = { ...base, call: (c) => callLocal(c, base) };
  const m = await decl.load();
  const calls = new Calls(ctx);
  let answer: SectionAnswer;
  try {
    answer = await m.build(calls, p);
  } catch (e) {
    if (!(e instanceof NotSynced)) throw e;
    answer = { status: 'not_synced', sync: e.sync };
  }
  return { answer, source: calls.source, map: calls.map, lines: async (width = 80) => m.render(answer, width) };
}
