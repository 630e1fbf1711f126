/**
 * Companies House publishes each snapshot (the company register, the PSC register) either as one zip or
 * as numbered parts (`..._1of7.zip` .. `_7of7.zip`), linked from one download page that may still list
 * older dates or a date whose parts are not all up yet. One rule for both datasets: take the newest date
 * with the one-file zip, else with every part of one count; never a mix of dates, never an incomplete set.
 */
import type { UpstreamFile } from '../../../../sync/types.js';

/** What a linked file name is: the one-file zip of a date, part `k` of `n` of a date, or not a snapshot file. */
export type SnapshotFile = { date: string; one: true } | { date: string; part: { k: number; n: number } };

export function pickSnapshotFiles(
  links: ReadonlyMap<string, string>,
  classify: (name: string) => SnapshotFile | undefined,
  o: { what: string; notAfter?: string },
): UpstreamFile[] | string {
  const byDate = new Map<string, { one?: string; parts: Array<{ k: number; n: number; name: string }> }>();
  for (const name of links.keys()) {
    const f = classify(name);
    if (!f) continue;
    const e = byDate.get(f.date) ?? { parts: [] };
    if ('one' in f) e.one = name;
    else e.parts.push({ ...f.part, name });
    byDate.set(f.date, e);
  }
  const dates = [...byDate.keys()].filter((d) => o.notAfter === undefined || d <= o.notAfter).sort().reverse();
  for (const d of dates) {
    const e = byDate.get(d)!;
    if (e.one) return [{ url: links.get(e.one)!, name: e.one, published: d, kind: 'full' }];
    const n = e.parts[0]?.n ?? 0;
    const ks = new Set(e.parts.map((p) => p.k));
    if (n && e.parts.every((p) => p.n === n) && ks.size === n && [...ks].every((k) => k >= 1 && k <= n)) {
      return e.parts.sort((a, b) => a.k - b.k).map((p) => ({ url: links.get(p.name)!, name: p.name, published: d, kind: 'full' as const }));
    }
  }
  return `no complete ${o.what} snapshot (one-file zip or every part) is linked`;
}
