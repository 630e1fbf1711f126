/**
 * End-to-end: the built `bin/publicdata.cjs` run as a process (execa). `npm test` builds first. The built
 * binary holds the real domains only (never the test-only example domain), so what is here works whatever
 * is registered; the domains' own runs of the binary (offline answers, --batch on worker threads, live calls
 * against the test API server) are test/<d>/e2e-bin.test.ts.
 */
import { readFileSync } from 'node:fs';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, baseEnv, binRunner, withBuiltServe } from '../support/e2e.js';

const captured: string[] = [];
const pd = binRunner(captured);

describe('built binary', () => {
  it('prints its version, package.json\'s (--version, -V and -v alone take the launcher\'s short path)', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V', '-v']) {
      const r = await pd([flag], baseEnv());
      expect([flag, r.exitCode, r.stdout, r.stderr]).toEqual([flag, 0, version, '']);
    }
    // with anything else on the line, the CLI answers: -v with a command is --verbose
    const r = await pd(['--version', '--no-color'], baseEnv());
    expect([r.exitCode, r.stdout]).toEqual([0, version]);
  });

  it('serve publishes every route\'s response schema (kept outside the bundle, imported from dist/src)', async () => {
    await withBuiltServe(async (url) => {
      const doc = (await (await fetch(`${url}/openapi.json`)).json()) as { components: { schemas: Record<string, any> }; paths: Record<string, any> };
      const { PRODUCTION_ROUTES: ROUTES } = await import('../support/production.js');
      expect(ROUTES.filter((r) => !doc.components.schemas[r.id]).map((r) => r.id)).toEqual([]);
      // each in full, as the sources give it (the take-home one by its fields: test/tax/e2e-bin.test.ts)
      const { openApiDocument } = await import('../../src/server/openapi.js');
      const { loadResponseSchemas } = await import('../../src/registry.js');
      const mine = openApiDocument(ROUTES, url, { auth: false, responses: await loadResponseSchemas() }) as { components: { schemas: Record<string, unknown> } };
      // the built binary has no test-only domain, so its area schema has no `example` section (the one the
      // test-only domain declares in this process); taken out of the expected one, the rest must be equal
      const { EXAMPLE_DOMAIN } = await import('../support/example-domain/index.js');
      const withoutExample = (v: unknown): unknown => {
        if (Array.isArray(v)) return v.map(withoutExample);
        if (!v || typeof v !== 'object') return v;
        const kept = Object.entries(v).filter(([k, x]) => !(k === EXAMPLE_DOMAIN && typeof x === 'object'));
        // a list of section names (enum, required) loses the example's name
        return Object.fromEntries(kept.map(([k, x]) => [k, (k === 'enum' || k === 'required') && Array.isArray(x) ? x.filter((e) => e !== EXAMPLE_DOMAIN) : withoutExample(x)]));
      };
      for (const r of ROUTES) expect(doc.components.schemas[r.id], r.id).toEqual(withoutExample(mine.components.schemas[r.id]));
    });
  });

  it('bad arguments: one line in the error envelope, exit 2, no stack trace (a bad amount in a body: test/tax/e2e-bin.test.ts)', async () => {
    const r = await pd(['sql', 'SELECT 1', '--format', 'lots'], baseEnv());
    expect(r.exitCode).toBe(2);
    expect(r.stdout.split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stdout).error.code).toBe('usage_error');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    // Issue 10 item 3: the one-line message also goes to stderr (as gh does), so a person sees it.
    expect(r.stderr).toBe(`error usage_error: ${JSON.parse(r.stdout).error.message}`); // execa strips the final newline
  });
});

describe('sql to a pipe: DuckDB writes the NDJSON itself (COPY to /dev/stdout)', () => {
  const Q = `SELECT i, i / 8 AS eighth, 'r"' || i || chr(10) AS s, DATE '2024-01-01' + i::INTEGER AS d FROM range(6000) t(i) ORDER BY i`;
  // A shell pipe makes node's stdout a FIFO (execa's own stdout is a socket, which keeps the in-process path).
  const piped = (args: string, tail: string) =>
    execa('bash', ['-c', `node ${JSON.stringify(BIN)} ${args} | ${tail}; echo "status \${PIPESTATUS[0]}" >&2`], { env: baseEnv(), extendEnv: false, reject: false });

  it('the same bytes as the lines read in process', async () => {
    const direct = await pd(['sql', Q, '--format', 'ndjson'], baseEnv());
    const lines = direct.stdout.split('\n');
    expect(lines).toHaveLength(6000);
    expect(lines[9]).toBe('{"i":9,"eighth":1.125,"s":"r\\"9\\n","d":"2024-01-10"}');
    const r = await piped(`sql ${JSON.stringify(Q)} --format ndjson`, 'cat');
    expect(r.stderr).toBe('status 0');
    expect(r.stdout).toBe(direct.stdout);
  });

  it('a reader that stops early (head) ends it quietly; a DuckDB error mid-copy is the error envelope', async () => {
    const head = await piped(`sql ${JSON.stringify('SELECT i FROM range(10000000) t(i)')} --format ndjson`, 'head -n 2');
    expect(head.stdout).toBe('{"i":0}\n{"i":1}');
    expect(head.stderr).toBe('status 0');
    const bad = await piped(`sql ${JSON.stringify("SELECT CASE WHEN i = 5000 THEN error('boom') ELSE i END AS v FROM range(9000) t(i) ORDER BY i")} --format ndjson`, 'tail -n 1');
    expect(JSON.parse(bad.stdout).error.message).toContain('boom');
    expect(bad.stderr).toMatch(/boom[\s\S]*status [1-9]/);
    // failing half-way through a long COPY, DuckDB stops inside a line: the envelope still starts its own
    const half = await piped(`sql ${JSON.stringify("SELECT CASE WHEN i = 500000 THEN error('boom') ELSE i END AS x FROM range(1000000) t(i)")} --format ndjson`, 'tail -n 1');
    expect(JSON.parse(half.stdout).error.message).toContain('boom');
  });

  it('a query reading its own output (/dev/stdout, the one path it may open) is refused, not left waiting for ever', async () => {
    for (const q of ["SELECT * FROM read_text('/dev/stdout')", "SELECT size FROM read_blob('/dev/' || 'stdout')"]) {
      const r = await piped(`sql ${JSON.stringify(q)} --format ndjson`, 'cat');
      expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'invalid_parameter', message: expect.stringContaining("reads this run's own output") });
      expect(r.stderr).toMatch(/status 2$/);
    }
    // text that only mentions such a path is data, and runs
    const ok = await piped(`sql ${JSON.stringify("SELECT '/dev/sda' AS s, 'stdout' AS t")} --format ndjson`, 'cat');
    expect([ok.stdout, ok.stderr]).toEqual(['{"s":"/dev/sda","t":"stdout"}', 'status 0']);
  });
});
