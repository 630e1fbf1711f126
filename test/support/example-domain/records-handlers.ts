/** The example domain's mirror routes (routes-records.ts): the synced records of a dataset (dataset.ts), paged, with provenance. */
import { pagination } from '../../../src/contract/envelope.js';
import type { Handler } from '../../../src/contract/types.js';
import type { DatasetInfo } from '../../../src/mirror/catalog.js';
import { openDataset, pagedQuery, provenanceMeta, Where } from '../../../src/mirror/db.js';
import { EVENTS_INFO, RECORDS_INFO } from './dataset.js';

function recordsOf(info: DatasetInfo): Handler {
  return async (req, ctx) => {
    const conn = await openDataset(info, ctx.mirrorDir);
    const q = req.query;
    const where = new Where();
    if (q.colour !== undefined) where.add('colour = ?', String(q.colour));
    if (q.year !== undefined) where.add('year(recorded_on) = ?', Number(q.year));
    const page = Number(q.page ?? 1);
    const perPage = Number(q.per_page ?? 25);
    const { rows, total } = await pagedQuery(conn, { from: 'records', where, orderBy: 'id', page, perPage });
    return { data: rows, pagination: pagination(total, page, perPage), meta: await provenanceMeta(info, conn) };
  };
}

export const records = recordsOf(RECORDS_INFO);
export const events = recordsOf(EVENTS_INFO);
