/**
 * The one region vocabulary (issue 37): every parameter that takes a region accepts a name such as
 * "North West", a GSS code (E12000002) or the domain's own slug (`north_west`), in any case. The ONS areas
 * (the UK, GB, England and Wales, the four countries, the nine English regions) are reference data in
 * data/reference/regions.yaml; each domain says which of its own values each truly corresponds to
 * (`RegionTarget.gss`, from its own data/), and nothing else is mapped: the price cap's 14 electricity
 * distribution regions are not ONS regions, so E12000002 is refused there with the reason and what is
 * accepted. Names no domain. Built lazily: the data is read on the first value resolved.
 */
import type { ValueResolver } from '../contract/route.js';
import { nearestName } from '../contract/unknown-names.js';
import { loadData } from '../data.js';

export interface OnsArea {
  code: string;
  name: string;
  level: 'country' | 'region';
  aliases?: string[];
}

export interface RegionReference {
  as_of: string;
  source: { title: string; url: string; licence: string };
  areas: OnsArea[];
}

/** data/reference/regions.yaml (compiled to JSON by scripts/build-data.mjs). */
export const regionReference = (): RegionReference => loadData<RegionReference>('reference/regions');

/**
 * The key a region is matched by: no case, `&` as `and`, every run of anything but letters and digits as
 * one `_`, none at either end (`North-West`, `north west`, `NORTH_WEST` -> `north_west`; `e12000002`).
 */
export function regionKey(s: string): string {
  return s.toLowerCase().replace(/&/g, ' and ').replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
}

/** For a parameter whose values are GSS codes themselves: every ONS area of the data is its own code. */
export function onsAreaTargets(): RegionTarget[] {
  return regionReference().areas.map((a) => ({ value: a.code, gss: [a.code] }));
}

/** One value of a domain's region parameter. */
export interface RegionTarget {
  /** The parameter's own value (sent to the API). */
  value: string;
  /** The domain's own names and spellings of it (the value itself is always accepted). */
  names?: readonly string[];
  /** GSS codes of the ONS areas it truly corresponds to (their names and codes then resolve to it). */
  gss?: readonly string[];
  /** How the message lists it (default: `value (first name)`). */
  label?: string;
}

export interface RegionVocabulary {
  /** What the parameter's values are, for messages: `one of the 14 GB electricity regions`. */
  what: string;
  /** The domain's values (read from its data/ when first needed). */
  targets: () => readonly RegionTarget[];
  /** Why an ONS area with no value of the domain has none (said when one is given). */
  unmatched?: string;
  /** A value the vocabulary does not know that the parameter still takes as typed (a name substring, any GSS code). */
  passThrough?: (raw: string) => boolean;
  /** What the parameter takes besides the areas mapped, for messages (default: its values, each with its first name). */
  accepted?: string;
}

interface Table {
  own: Map<string, string>;
  ons: Map<string, OnsArea>;
  byGss: Map<string, string>;
  candidates: string[];
  accepted: string;
}

function build(v: RegionVocabulary): Table {
  const targets = v.targets();
  const areas = regionReference().areas;
  const own = new Map<string, string>();
  const byGss = new Map<string, string>();
  const candidates: string[] = [];
  for (const t of targets) {
    for (const n of [t.value, ...(t.names ?? [])]) {
      if (!own.has(regionKey(n))) own.set(regionKey(n), t.value);
      candidates.push(n);
    }
    for (const code of t.gss ?? []) byGss.set(code.toUpperCase(), t.value);
  }
  const ons = new Map<string, OnsArea>();
  for (const a of areas) for (const n of [a.code, a.name, ...(a.aliases ?? [])]) ons.set(regionKey(n), a);
  const mapped = areas.filter((a) => byGss.has(a.code));
  for (const a of mapped) candidates.push(a.name, ...(a.aliases ?? []));
  const ownList = v.accepted ?? targets.map((t) => t.label ?? (t.names?.length && regionKey(t.names[0]!) !== regionKey(t.value) ? `${t.value} (${t.names[0]})` : t.value)).join(', ');
  const onsList = mapped.length ? `; or an ONS ${mapped.some((a) => a.level === 'region') ? 'country or region' : 'area'} by name or GSS code: ${mapped.map((a) => `${a.name} ${a.code}`).join(', ')}` : '';
  return { own, ons, byGss, candidates, accepted: `Accepted, in any case (spaces, hyphens and underscores alike): ${ownList}${onsList}.` };
}

/**
 * A region parameter's resolver: the domain's own value or name, else an ONS area's name or GSS code that
 * corresponds to one of its values, else (when `passThrough` takes it) the value as typed; otherwise a
 * refusal naming what was given, the nearest accepted name and every accepted form.
 */
export function regionResolver(v: RegionVocabulary): ValueResolver {
  let t: Table | undefined;
  return (raw) => {
    t ??= build(v);
    const key = regionKey(raw);
    const own = t.own.get(key);
    if (own !== undefined) return own;
    const area = t.ons.get(key);
    if (area) {
      const hit = t.byGss.get(area.code);
      if (hit !== undefined) return hit;
      return { refused: `'${raw}' is the ONS ${area.level} ${area.name} (${area.code}), which ${v.unmatched ?? `is not ${v.what}`}. ${t.accepted}` };
    }
    if (v.passThrough?.(raw)) return raw;
    const near = nearestName(raw.trim(), t.candidates);
    return { refused: `'${raw}' is not ${v.what}${near !== undefined ? `; did you mean '${near}'?` : '.'} ${t.accepted}`, ...(near !== undefined ? { near } : {}) };
  };
}
