/**
 * `publicdata tax vat-return`: the nine-box return from a JSON body (--body) or a bookkeeping CSV export
 * (--csv, transaction fields as columns) with company and period from --body or flags.
 */
import { Option } from 'commander';
import { readFileSync } from 'node:fs';
import { ApiError } from '../../../contract/errors.js';
import type { RouteCommandSpec } from '../../command-kit.js';

export const vatReturnCommand: RouteCommandSpec = {
  name: 'vat-return',
  route: 'tax.vat.return.calculate',
  description: 'Nine-box VAT return from a period of transactions (every scheme, partial exemption, fuel scale charges)',
  flags: [
    { flags: '--breakdown <detail>', param: 'breakdown_detail', description: 'full, summary (default) or none', choices: ['full', 'summary', 'none'] },
  ],
  bodyFile: true,
  batch: true,
  extraOptions: [
    new Option('--csv <file>', 'transactions from a CSV export (columns: id,date,type,net_amount,vat_amount,gross_amount,vat_rate,vat_rate_percentage,supply_type,is_capital_asset,...)'),
    new Option('--period <start:end>', 'return period with --csv, e.g. 2026-01-01:2026-03-31'),
    new Option('--vrn <number>', 'VAT registration number with --csv'),
    new Option('--scheme <scheme>', 'accounting scheme with --csv (default standard)').choices(['standard', 'flat_rate', 'cash_accounting', 'annual_accounting']),
  ],
  examples: [
    'publicdata tax vat-return --body q1.json',
    'publicdata tax vat-return --csv q1.csv --period 2026-01-01:2026-03-31 --vrn GB123456789',
    'publicdata tax vat-return --body q1.json --breakdown full --format json',
  ],
  prepare: async (call, opts) => {
    if (opts.csv === undefined) {
      const stray = ['period', 'vrn', 'scheme'].filter((k) => opts[k] !== undefined);
      if (stray.length) throw new ApiError(400, 'usage_error', `vat-return: ${stray.map((k) => `--${k}`).join(', ')} go${stray.length === 1 ? 'es' : ''} with --csv; with --body, put them in the JSON.`);
      if (opts.body === undefined && !opts.batch) throw new ApiError(400, 'usage_error', 'vat-return needs --body FILE (JSON request) or --csv FILE.');
      return call;
    }
    if ((call.body as Record<string, unknown> | undefined)?.transactions !== undefined) {
      throw new ApiError(400, 'usage_error', 'vat-return: --body has transactions and --csv gives them too; use one (with --csv, --body may hold company and period only).');
    }
    if (opts.batch) throw new ApiError(400, 'usage_error', 'vat-return: --csv and --batch do not go together (--batch reads request bodies from stdin).');
    let text: string;
    try {
      text = readFileSync(String(opts.csv), 'utf8');
    } catch (e) {
      throw new ApiError(400, 'usage_error', `--csv: cannot read '${String(opts.csv)}': ${(e as NodeJS.ErrnoException).code ?? ''}`);
    }
    const { transactionsFromCsv } = await import('../../../domains/tax/vat-return/handler.js');
    const body = { ...((call.body as Record<string, unknown>) ?? {}) };
    try {
      body.transactions = transactionsFromCsv(text);
    } catch (e) {
      if (e instanceof ApiError) throw new ApiError(e.status, e.code, `--csv: ${String(opts.csv)}: ${e.message}`);
      throw new ApiError(400, 'usage_error', `--csv: ${String(opts.csv)}: ${(e as Error).message}`);
    }
    if (opts.period !== undefined) {
      const m = /^(\d{4}-\d{2}-\d{2}):(\d{4}-\d{2}-\d{2})$/.exec(String(opts.period));
      if (!m) throw new ApiError(400, 'usage_error', `--period takes START:END dates, e.g. 2026-01-01:2026-03-31.`);
      body.period = { start_date: m[1], end_date: m[2] };
    }
    if (opts.vrn !== undefined || opts.scheme !== undefined || body.company === undefined) {
      const company = { ...((body.company as Record<string, unknown>) ?? {}) };
      if (opts.vrn !== undefined) company.vat_registration_number = String(opts.vrn);
      if (company.vat_schemes === undefined) {
        const p = body.period as { start_date?: string } | undefined;
        company.vat_schemes = [{ scheme: String(opts.scheme ?? 'standard'), effective_from: p?.start_date ?? null, effective_to: null }];
      }
      body.company = company;
    }
    return { ...call, body };
  },
};
