/**
 * GET /v1/area/{postcode} and `publicdata area`: the frame the postcodes domain owns, on whatever sections
 * the registry declares (each domain's own section is tested in its folder: test/<domain>/area-section.test.ts).
 * Postcode resolution, the declared order, `source`/`as_of` of each ok section, not_synced, bad input and
 * `--sections` (only declared names), the terminal report, `--html` refusing bad input. No section is named here.
 */
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { areaSections } from '../../src/domains/manifest.js';
import { syncDataset } from '../../src/sync-runner.js';
import { json, runCli } from '../support/cli.js';
import { useFixtureMirror } from '../support/route-samples.js';
import { GENERATED_2026_CSV } from './samples.js';

const fx = useFixtureMirror('pd-area-');
const area = async (args: string[], env = fx.env()) => runCli(['area', ...args, '--format', 'json'], { env });
const declared = () => areaSections().map((s) => s.name);

describe('area: the frame over every declared section', () => {
  it('the postcode as /v1/postcodes answers it, then every declared section in the declared order', async () => {
    const r = await area(['ec2v7hh']);
    expect(r.code).toBe(0);
    const { data, meta } = json(r);
    const pc = json(await runCli(['api', 'GET', '/v1/postcodes/EC2V%207HH', '--format', 'json'], { env: fx.env() })).data;
    expect(data.postcode).toEqual(pc);
    expect(declared().length).toBeGreaterThan(0);
    expect(Object.keys(data.sections)).toEqual(declared());
    const orders = areaSections().map((s) => s.order);
    expect([...orders].sort((a, b) => a - b)).toEqual(orders);
    // an ok section names the request paths it read and its date; meta.sections_as_of lists the ok ones
    const ok = Object.entries(data.sections as Record<string, any>).filter(([, s]) => s.status === 'ok');
    expect(ok.length).toBeGreaterThan(0);
    for (const [name, s] of ok) {
      expect(s.source.length, name).toBeGreaterThan(0);
      for (const p of s.source) expect(p, name).toMatch(/^(POST )?\/v1\//);
      expect(meta.sections_as_of[name]).toBe(s.as_of);
    }
    expect(Object.keys(meta.sections_as_of).sort()).toEqual(ok.map(([n]) => n).sort());
    expect([meta.radius_km, meta.months]).toEqual([1, 12]);
  });

  it('--sections: only those asked, in the declared order whatever the order given', async () => {
    const names = declared().slice(-2);
    const r = await area(['EC2V 7HH', '--sections', [...names].reverse().join(',')]);
    expect(Object.keys(json(r).data.sections)).toEqual(names);
  });
});

describe('area: not synced, bad input, the terminal report', () => {
  let env: Record<string, string>;
  let none: Record<string, string>;
  beforeAll(async () => {
    const data = mkdtempSync(join(tmpdir(), 'pd-area-only-'));
    await syncDataset('postcodes', { mirrorDir: join(data, 'mirror'), cacheDir: join(data, 'cache'), env: {}, from: [GENERATED_2026_CSV] });
    env = { PUBLICDATA_DATA_DIR: data, PUBLICDATA_CONFIG_DIR: join(data, 'config'), PUBLICDATA_CACHE_DIR: join(data, 'cache') };
    const empty = mkdtempSync(join(tmpdir(), 'pd-area-none-'));
    none = { PUBLICDATA_DATA_DIR: empty, PUBLICDATA_CONFIG_DIR: join(empty, 'config') };
  }, 60_000);

  it('a section whose dataset is not synced names its sync command; the others answer', async () => {
    const r = await area(['LS8 3BS'], env);
    expect(r.code).toBe(0);
    const { data, meta } = json(r);
    const notSynced = Object.entries(data.sections as Record<string, any>).filter(([, s]) => s.status === 'not_synced');
    // only the postcodes are synced: every section that reads a mirror dataset says how to fill it
    expect(notSynced.length).toBeGreaterThan(0);
    for (const [, s] of notSynced) expect(s.sync).toMatch(/^publicdata sync [\w-]+(, publicdata sync [\w-]+)*$/);
    expect(meta.missing).toEqual(notSynced.map(([n]) => n));
    for (const s of Object.values(data.sections as Record<string, any>)) expect(['ok', 'not_synced', 'no_coverage']).toContain(s.status);
  });

  it('without the postcodes: 503 dataset_not_synced naming their sync', async () => {
    const r = await area(['LS8 3BS'], none);
    expect(json(r).error.code).toBe('dataset_not_synced');
    expect(json(r).error.message).toContain("run 'publicdata sync postcodes' first");
  });

  it('bad input: 400 before any data access (an undeclared section among them), 404 for a postcode not in the directory', async () => {
    for (const args of [['hello'], ['LS8 3BS', '--radius-km', '6'], ['LS8 3BS', '--months', '0'], ['LS8 3BS', '--months', '37'], ['LS8 3BS', '--sections', 'weather']]) {
      const r = await area(args, env);
      expect(r.code, args.join(' ')).toBe(2);
      expect(json(r).error.code).toBe('invalid_parameter');
    }
    // the allowed sections are the declared ones
    expect(json(await area(['LS8 3BS', '--sections', 'weather'], env)).error.message).toContain(`Allowed: ${declared().join(', ')}.`);
    const r = await area(['ZZ1 1ZZ'], env);
    expect(json(r).error.code).toBe('not_found');
  });

  it('on a terminal: one report within 80 columns, a heading per section', async () => {
    const r = await runCli(['area', 'EC2V', '7HH'], { env: fx.env(), tty: true, columns: 80 });
    expect(r.code).toBe(0);
    for (const line of r.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(r.stdout.split('\n')[0]).toMatch(/^EC2V 7HH {2}/);
    const heads = r.stdout.split('\n').filter((l) => /^[A-Z][A-Z ]+( \(as of [^)]+\))?$/.test(l)).map((l) => l.replace(/ \(as of.*$/, ''));
    expect(heads).toEqual(declared().map((n) => n.replace(/_/g, ' ').toUpperCase()));
  });

  it('area --html with a string that cannot be a postcode: the 400 of the route, exit 2, no file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pd-area-bad-'));
    const file = join(dir, 'report.html');
    const r = await runCli(['area', 'hello', '--html', file], { env: { PUBLICDATA_DATA_DIR: dir, PUBLICDATA_CONFIG_DIR: dir, NO_COLOR: '1' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/invalid_parameter/);
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes('report'))).toEqual([]);
  });
});
