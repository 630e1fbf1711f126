/**
 * GET /v1/area/{postcode}: the area profile (spec 5-places.md). The postcode comes from /v1/postcodes/{postcode};
 * the sections are whatever the registry's manifests declare (`area`, src/domains/area-section.ts), in their
 * order, each built by its own domain's section module through the handler context's `call` (the handler
 * runner runs those routes locally, validated like any call): this file names no other domain. A section
 * whose dataset is not synced says `not_synced` with the sync command its route names; the others still
 * answer. Each `ok` section lists its `source`: the request paths it read, runnable with `publicdata api GET …`,
 * and `map`: the point requests the area page draws. How each figure is computed: docs/places.md.
 */
import { ApiError } from '../../contract/errors.js';
import type { Handler, Meta } from '../../contract/types.js';
import { meta as baseMeta } from '../../contract/envelope.js';
import { Calls, NotSynced, type Json, type Place, type SectionAnswer } from '../area-section.js';
import { areaSections } from '../manifest.js';
import { reference } from './record.js';

export const profile: Handler = async (req, ctx) => {
  const raw = String(req.params.postcode);
  const q = req.query;
  const radius = Number(q.radius_km ?? 1);
  const months = Number(q.months ?? 12);
  const declared = areaSections();
  const wanted = Array.isArray(q.sections) && q.sections.length ? (q.sections as string[]) : declared.map((s) => s.name);
  const pcCalls = new Calls(ctx);
  let pcEnv: Json;
  try {
    pcEnv = await pcCalls.get(`/v1/postcodes/${encodeURIComponent(raw.trim())}`);
  } catch (e) {
    if (e instanceof NotSynced) throw new ApiError(503, 'dataset_not_synced', `The area profile starts from the postcode: run '${e.sync}' first.`);
    throw e;
  }
  const pc = pcEnv.data;
  const place: Place = {
    pc, lat: pc.location?.latitude ?? null, lng: pc.location?.longitude ?? null, radius, months, today: ctx.now().toISOString().slice(0, 10),
    country: (reference().countries[String(pc.country?.code)] as Place['country'] | undefined) ?? null,
  };
  const sections: Record<string, SectionAnswer> = {};
  const asOf: Record<string, string | null> = {};
  const missing: string[] = [];
  for (const decl of declared.filter((s) => wanted.includes(s.name))) {
    const calls = new Calls(ctx);
    try {
      const s = await (await decl.load()).build(calls, place);
      sections[decl.name] = s.status === 'ok' ? { ...s, as_of: calls.asOf, source: calls.source, ...(calls.map.length ? { map: calls.map } : {}) } : s;
      if (s.status === 'ok') asOf[decl.name] = calls.asOf;
    } catch (e) {
      if (!(e instanceof NotSynced)) throw e;
      sections[decl.name] = { status: 'not_synced', sync: e.sync };
      missing.push(decl.name);
    }
  }
  const m: Meta = baseMeta({
    licence: String(pcEnv.meta?.licence ?? ''), source: 'publicdata area profile: each section from its own domain (section.source)', edition: pcEnv.meta?.edition ?? null,
    // meta.as_of is a date in every envelope (the published meta schema): the postcode directory's; each
    // section's own date is in meta.sections_as_of and in the section (docs/places.md)
    as_of: pcEnv.meta?.as_of ?? null, sections_as_of: asOf, missing, radius_km: radius, months,
    note: [
      'Each section is computed from the synced open data of its own domain (docs/places.md says how, and what is approximate); source lists the request paths behind each figure.',
      ...(pcEnv.meta?.note ? [String(pcEnv.meta.note)] : []),
    ].join(' '),
  } as Record<string, unknown>);
  return { data: { postcode: pc, sections }, meta: m };
};
