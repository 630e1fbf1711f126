/** property's own output cases (moved from test/cli/output.test.ts): the HPI chart renderer, --fields on mirror status. */
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { rendererFor, type RenderContext } from '../../src/output/renderers.js';
import { renderersFor } from '../../src/registry.js';

const M = { api_version: 'v1' as const, licence: 'OGL' };
const rc = (over: Partial<RenderContext> = {}): RenderContext => ({ format: 'table', color: false, columns: 80, tty: true, wide: false, options: {}, renderers: renderersFor, ...over });

describe('property output', () => {
  it('the HPI answer is charted with --chart, a table without', async () => {
    expect((await rendererFor({ envelope: { data: [], meta: M }, id: 'property.hpi' }, rc({ options: { chart: true } }))).name).toBe('hpi-chart');
    expect((await rendererFor({ envelope: { data: [], meta: M }, id: 'property.hpi' }, rc())).name).toBe('table');
  });

  it('--fields applies to mirror status', async () => {
    const st = await runCli(['mirror', 'status', 'hpi', '--fields', 'dataset,present', '--format', 'csv']);
    expect(st.stdout).toBe('dataset,present\r\nhpi,false\r\n');
  });
});
