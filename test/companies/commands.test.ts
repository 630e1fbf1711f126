/** companies' own command tests (moved from test/cli/commands.test.ts): the not-synced answer, api --list's sync hints, help. */
import { describe, expect, it } from 'vitest';
import { runCli, json } from '../support/cli.js';

describe('companies commands', () => {
  it('a route whose dataset is not synced, with no key, names the sync command and the key (exit 1)', async () => {
    // Every route now has a local handler; without its data and without a key the answer says what would serve it.
    const r = await runCli(['companies', 'show', '00445790']);
    expect(r.code).toBe(1);
    expect(json(r).error.code).toBe('dataset_not_synced');
    expect(json(r).error.message).toContain("'publicdata sync companies'");
    expect(json(r).error.message).toContain('PUBLICDATA_API_KEY');
    const live = await runCli(['companies', 'show', '00445790', '--source', 'live']);
    expect([live.code, json(live).error.code]).toEqual([4, 'unauthorized']);
  });

  it('api --list names the sync each companies route needs', async () => {
    const lines = (await runCli(['api', '--list'], { tty: true, columns: 1000 })).stdout.trim().split('\n');
    expect(lines.find((l) => l.startsWith('GET  /v1/companies/search'))).toMatch(/ 1 credit\s+local \(sync companies\)/);
    expect(lines.find((l) => l.startsWith('GET  /v1/companies/{company_number}/financials'))).toMatch(/ 1 credit\s+local \(sync accounts\)/);
  });

  it('companies --help says the financial routes answer offline after sync accounts (not live only)', async () => {
    const r = await runCli(['companies', '--help']);
    expect(r.stdout).toContain("'publicdata sync accounts'");
    expect(r.stdout).not.toMatch(/financial routes are served by the live API/);
  });
});
