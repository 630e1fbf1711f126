/**
 * The registry and the layering it promises: the contract imports no domain, backend or mirror code;
 * there is no static import cycle; every manifest's handlers and datasets name real routes and datasets.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DATASET_ENTRIES, DATASETS, DOMAINS as ALL_DOMAINS, ROUTES } from '../../src/registry.js';
import { PRODUCTION_DOMAINS as DOMAINS } from '../support/production.js';
import { loadModule, syncDatasets } from '../../src/sync-runner.js';

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

/** Every relative import of a file (value, type and dynamic), resolved to source paths. */
function allImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)|^import\s+['"](\.[^'"]+)['"]/gm)].map((m) =>
    resolve(dirname(file), (m[1] ?? m[2] ?? m[3])!.replace(/\.js$/, '.ts')),
  );
}

const domainOf = (f: string): string | undefined => /src\/domains\/([^/]+)\//.exec(relative(root, f))?.[1];

describe('a domain is one folder', () => {
  it("route specs are pure: a domain's routes.ts imports only src/contract", () => {
    const bad: string[] = [];
    for (const d of DOMAINS) {
      const f = join(root, 'src/domains', d.name, 'routes.ts');
      for (const t of allImports(f)) if (!t.startsWith(join(root, 'src/contract'))) bad.push(`${relative(root, f)} -> ${relative(root, t)}`);
    }
    expect(bad).toEqual([]);
  });

  it("every route's literal id and path appear in its domain's routes.ts (grep finds them)", () => {
    const missing: string[] = [];
    for (const d of DOMAINS) {
      const text = readFileSync(join(root, 'src/domains', d.name, 'routes.ts'), 'utf8');
      for (const r of d.routes) {
        if (!text.includes(`'${r.id}'`)) missing.push(r.id);
        if (!text.includes(`'${r.path}'`)) missing.push(r.path);
      }
    }
    expect(missing).toEqual([]);
  });

  it('no domain imports another, and only src/registry.ts imports a domain from outside the domains', () => {
    const bad: string[] = [];
    for (const f of FILES) {
      const from = domainOf(f);
      for (const t of allImports(f)) {
        const to = domainOf(t);
        if (!to) continue;
        if (from ? from !== to : relative(root, f) !== 'src/registry.ts') bad.push(`${relative(root, f)} -> ${relative(root, t)}`);
      }
    }
    expect(bad).toEqual([]);
  });
});

/**
 * The layers of docs/architecture.md, lowest first: a module imports (value, type or dynamic) only from
 * its own layer or below.
 */
function layerOf(file: string): number {
  const f = relative(root, file);
  const at = (...xs: string[]) => xs.includes(f);
  if (f.startsWith('src/contract/') || f.startsWith('src/types/') || at('src/money.ts', 'src/version.ts', 'src/io.ts', 'src/amount.ts', 'src/pid.ts', 'src/uk-time.ts')) return 0;
  if (f.startsWith('src/mirror/') || f.startsWith('src/reference/') || f.startsWith('src/workers/') || f.startsWith('src/pages/') || (f.startsWith('src/output/') && f !== 'src/output/renderers.ts') || at('src/data.ts', 'src/config.ts', 'src/fatal.ts')) return 1;
  // the sync framework writes what the mirror reads: it imports src/mirror, never the reverse
  if (f.startsWith('sync/')) return 1.1;
  if (f.startsWith('src/domains/') || f === 'src/registry.ts') return 2;
  // execution: the handler runner, the backends it serves, then what chooses and calls a backend (the
  // context builds the backends; no backend knows the context) and the sync runner
  if (at('src/runner.ts')) return 3;
  if (f.startsWith('src/backends/')) return 3.1;
  if (at('src/execute.ts', 'src/context.ts', 'src/create-context.ts', 'src/sync-runner.ts', 'src/sync-check.ts')) return 3.2;
  if (f === 'src/output/renderers.ts') return 4;
  return 5;
}

describe('layering', () => {
  it('no module imports a module of a higher layer (contract -> framework -> domains -> execution -> output -> front ends)', () => {
    const bad: string[] = [];
    for (const f of FILES) for (const t of allImports(f)) if (FILES.includes(t) && layerOf(t) > layerOf(f)) bad.push(`${relative(root, f)} (${layerOf(f)}) -> ${relative(root, t)} (${layerOf(t)})`);
    expect(bad).toEqual([]);
  });

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
  it('registers a domain by one line (its name and manifest import): DOMAINS are every folder of src/domains with a manifest, in the order of those lines', () => {
    const text = readFileSync(join(root, 'src/registry.ts'), 'utf8');
    const lines = [...text.matchAll(/^  \{ name: '([^']+)', load: \(\) => import\('\.\/domains\/\1\/index\.js'\)(?:, .*)? \},$/gm)].map((m) => m[1]);
    expect(DOMAINS.map((d) => d.name)).toEqual(lines);
    const folders = readdirSync(join(root, 'src/domains')).filter((d) => existsSync(join(root, 'src/domains', d, 'index.ts')));
    expect([...lines].sort()).toEqual(folders.sort());
  });

  it('lists each domain once (named as its folder), and the route table is the union of their routes', () => {
    const names = DOMAINS.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(existsSync(join(root, 'src/domains', n, 'index.ts')), `src/domains/${n}/index.ts`).toBe(true);
    expect(ROUTES.length).toBe(ALL_DOMAINS.reduce((n, d) => n + d.routes.length, 0));
    for (const d of ALL_DOMAINS) for (const r of d.routes) expect(r.domain).toBe(d.name);
  });

  it("every local handler belongs to one of its domain's routes and reads only declared datasets", () => {
    for (const d of DOMAINS) {
      const ids = new Set(d.routes.map((r) => r.id));
      for (const [id, spec] of Object.entries(d.local)) {
        expect(ids.has(id), `${d.name}: local handler for unknown route ${id}`).toBe(true);
        for (const ds of spec.datasets ?? []) expect(DATASETS, `${id} reads unknown dataset ${ds.name}`).toContain(ds);
      }
    }
    // Every route answers offline (the whole API from the shell without a key, once synced).
    expect(ROUTES.filter((r) => !r.local).map((r) => r.id)).toEqual([]);
  });

  it('the dataset catalogue and the sync modules derive from the manifests', async () => {
    const names = DATASET_ENTRIES.map((d) => d.info.name);
    expect(new Set(names).size).toBe(names.length);
    expect(DATASETS.map((d) => d.name)).toEqual(names);
    expect(syncDatasets()).toEqual(names);
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
