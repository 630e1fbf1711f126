/**
 * The registry of a fresh process as the CLI meets it (src/registry.ts: manifests load on demand): `tax
 * take-home --rank` calls an earnings route, whose domain is then loaded alone; the area profile loads every
 * domain. The built dist/src/registry.js runs in a child (this process has every domain loaded by the test
 * setup). Here, not in test/cli/: it names real domains (check:domains runs the shared tests without them).
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PRODUCTION_DOMAINS as DOMAINS } from '../support/production.js';

describe('registry: manifests loaded on demand', () => {
  const registry = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'src', 'registry.js')).href;
  const fresh = (body: string): unknown => {
    const code = `const r = await import(${JSON.stringify(registry)});\nconst out = [];\n${body}\nprocess.stdout.write(JSON.stringify(out));`;
    const res = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
    expect(res.status, res.stderr).toBe(0);
    return JSON.parse(res.stdout);
  };

  it("a route under /v1/<domain>/ loads that domain's manifest alone; the area profile and an unknown path load every domain", () => {
    const names = DOMAINS.map((d) => d.name);
    const [afterRank, rankRoute, afterTax, afterArea, areaRoute, unknown] = fresh(`
      await r.loadDomains(['tax']);
      const rank = (await r.matchLoading('POST', '/v1/earnings/percentile')).route.id;
      out.push(r.loadedDomains(), rank);
      await r.matchLoading('GET', '/v1/tax/years');
      out.push(r.loadedDomains());
      const area = (await r.matchLoading('GET', '/v1/area/LS8%203BS')).route.id;
      out.push(r.loadedDomains().length, area);
      try { await r.matchLoading('GET', '/v1/nowhere/x'); out.push('matched'); } catch (e) { out.push(e.code ?? String(e)); }
    `) as [string[], string, string[], number, string, string];
    // the tax command's own domain, then earnings (alone) for --rank's call
    expect(afterRank).toEqual(names.filter((n) => n === 'tax' || n === 'earnings'));
    expect(rankRoute).toBe('earnings.percentile');
    expect(afterTax).toEqual(names.filter((n) => n === 'tax' || n === 'earnings'));
    expect(afterArea).toBe(names.length);
    expect(areaRoute).toBe('area.profile');
    expect(unknown).toBe('not_found');
  });
});
