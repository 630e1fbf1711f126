import { DuckDBInstance } from '@duckdb/node-api';
const inst = await DuckDBInstance.create('/work/wt/serve/bench/.work/mirror/price_paid.duckdb', { access_mode: 'READ_ONLY' });
const conn = await inst.connect();
const t0 = Date.now();
const q = conn.runAndReadAll('SELECT count(*) FROM range(3000000000) a').then(() => console.log('done', Date.now() - t0), (e) => console.log('rejected', Date.now() - t0, e.message));
setTimeout(() => { conn.interrupt(); conn.closeSync(); inst.closeSync(); console.log('closed', Date.now() - t0); }, 300);
await q;
process.on('exit', () => console.log('exit', Date.now() - t0));
