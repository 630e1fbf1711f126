/**
 * The endpoints the spec documents name (docs/spec/*.md, the service's published spec as this project
 * received it): every `METHOD /v1/...` in backticks, plus the shorthand forms the documents use for a
 * route's year or id variant: "(optional `/{tax_year}`" after a route, "`.../x/{tax_year}`" after
 * `/v1/.../x`, and "and `/periods/{period_id}`" after `/v1/.../periods/current`. Read independently of
 * the code's route table, so a route in the spec with no spec in the code (or the reverse) shows.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SPEC_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../docs/spec');

export function specEndpoints(): Set<string> {
  const out = new Set<string>();
  for (const f of readdirSync(SPEC_DIR).filter((n) => n.endsWith('.md')).sort()) {
    const text = readFileSync(join(SPEC_DIR, f), 'utf8');
    const re = /`(GET|POST|PUT|PATCH|DELETE) (\/v1\/[^`\s]*)`|\(optional `\/\{(\w+)\}`|`\.\.\.(\/[^`\s]+)`|and `(\/[a-z-]+\/\{\w+\})`/g;
    let last: { method: string; path: string } | undefined;
    for (const m of text.matchAll(re)) {
      if (m[1] && m[2]) {
        last = { method: m[1], path: m[2] };
        out.add(`${m[1]} ${m[2]}`);
      } else if (last && m[3]) {
        out.add(`${last.method} ${last.path}/{${m[3]}}`);
      } else if (last && m[4]) {
        // `.../thresholds/{tax_year}` after /v1/tax/national-insurance/thresholds
        const tail = m[4];
        const first = tail.split('/')[1]!;
        const at = last.path.lastIndexOf(`/${first}`);
        if (at >= 0) out.add(`${last.method} ${last.path.slice(0, at)}${tail}`);
      } else if (last && m[5]) {
        // `/periods/{period_id}` after /v1/energy/price-cap/periods/current
        const seg = m[5].split('/')[1]!;
        const at = last.path.lastIndexOf(`/${seg}`);
        if (at >= 0) out.add(`${last.method} ${last.path.slice(0, at)}${m[5]}`);
      }
    }
  }
  return out;
}
