/**
 * The registry and the layering it promises: the contract imports no domain, backend or mirror code;
 * there is no static import cycle; every manifest's handlers and datasets name real routes and datasets.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DATASET_ENTRIES, DATASETS, DOMAINS, ROUTES } from '../../src/registry.js';
import { SYNC_DATASETS, loadModule } from '../../sync/registry.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...tsFiles(p));
    else if (p.endsWith('.ts') && !p.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** Static (value) imports of a source file, resolved to source paths; `import type` and import() are not edges. */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  const re = /^(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"](\.[^'"]+)['"]/gm;
  for (const m of text.matchAll(re)) {
    if (/^(import|export)\s*\{[^}]*\}\s*from/.test(m[0]) && /^(import|export)\s*\{\s*(type\s+\w+\s*,?\s*)+\}/.test(m[0])) continue;
    out.push(resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts')));
  }
  return out;
}

const FILES = ['src', 'commands', 'sync'].flatMap((d) => tsFiles(join(root, d)));

describe('layering', () => {
  it('src/contract imports nothing outside src/contract', () => {
    const contract = join(root, 'src/contract');
    const bad: string[] = [];
    for (const f of FILES.filter((f) => f.startsWith(contract))) {
      const text = readFileSync(f, 'utf8');
      for (const m of text.matchAll(/from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g)) {
        const target = resolve(dirname(f), (m[1] ?? m[2])!);
        if (!target.startsWith(contract)) bad.push(`${relative(root, f)} -> ${relative(root, target)}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('has no static import cycle', () => {
    const graph = new Map(FILES.map((f) => [f, staticImports(f)]));
    const state = new Map<string, 'visiting' | 'done'>();
    const cycles: string[] = [];
    const visit = (f: string, stack: string[]) => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'visiting') {
        cycles.push([...stack.slice(stack.indexOf(f)), f].map((p) => relative(root, p)).join(' -> '));
        return;
      }
      state.set(f, 'visiting');
      for (const g of graph.get(f) ?? []) visit(g, [...stack, f]);
      state.set(f, 'done');
    };
    for (const f of FILES) visit(f, []);
    expect(cycles).toEqual([]);
  });
});

describe('registry', () => {
  it('lists the five domains, and the route table is the union of their routes', () => {
    expect(DOMAINS.map((d) => d.name)).toEqual(['property', 'companies', 'tax', 'vehicles', 'calendar']);
    expect(ROUTES.length).toBe(DOMAINS.reduce((n, d) => n + d.routes.length, 0));
    for (const d of DOMAINS) for (const r of d.routes) expect(r.domain).toBe(d.name);
  });

  it("every local handler belongs to one of its domain's routes and reads only declared datasets", () => {
    for (const d of DOMAINS) {
      const ids = new Set(d.routes.map((r) => r.id));
      for (const [id, spec] of Object.entries(d.local)) {
        expect(ids.has(id), `${d.name}: local handler for unknown route ${id}`).toBe(true);
        for (const ds of spec.datasets ?? []) expect(DATASETS, `${id} reads unknown dataset ${ds.name}`).toContain(ds);
      }
    }
    expect(ROUTES.filter((r) => r.local).length).toBe(81); // 56 + 7 financial company routes (accounts) + 5 licensing/MOT routes + 13 companies register, PSC and SIC routes
  });

  it('the dataset catalogue and the sync modules derive from the manifests', async () => {
    const names = DATASET_ENTRIES.map((d) => d.info.name);
    expect(new Set(names).size).toBe(names.length);
    expect(DATASETS.map((d) => d.name)).toEqual(names);
    expect(SYNC_DATASETS).toEqual(names);
    for (const name of names) {
      const m = await loadModule(name);
      expect(m.name).toBe(name);
      expect(m.file).toBe(DATASETS.find((d) => d.name === name)!.file);
    }
  });

  it('every local handler loads', async () => {
    for (const r of ROUTES) if (r.local) expect(typeof (await r.local.handler())).toBe('function');
  });
});
