// The data folder of the all-sections area bench (bench/places.bench.mjs (d)): one mirror holding every
// dataset the area profile reads, at national scale where the issue asks for it (price paid 30M rows, crime
// 12 months of every force, food hygiene 500k establishments, five years of collisions, the companies
// register, the 2.7M-row postcode directory).
//
// Each mirror file is, in order of preference:
//  1. the file another bench left in bench/.work (symlinked, never copied or regenerated): the places bench's
//     postcodes, the crime bench's crime, the property bench's price paid, the companies bench's register,
//     the food hygiene bench's establishments, the schools bench's schools;
//  2. built here from GENERATED national-scale input in the real layout with the generators the other
//     benches use (bench/lib/pp-gen.mjs, food-hygiene-gen.mjs, stats19-gen.mjs), synced through the real
//     sync path, cached in bench/.work/area-data;
//  3. for the datasets that are small nationally (HPI, earnings, road traffic, the price cap) and where no
//     bench input exists (schools, companies: their benches generate inline), the test fixtures synced
//     with --from, and the answer says so (`scale`).
// Council tax is not synced (its fixture is built by test code): the property section answers its price
// paid and HPI parts and lists council tax in `not_synced`, as a user's mirror without it would.
import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runNode } from './child.mjs';
import { generateCode as ppGenerateCode } from './pp-gen.mjs';
import { generateFoodHygiene } from './food-hygiene-gen.mjs';
import { generateStats19 } from './stats19-gen.mjs';
import { generateLevelsWorkbook } from './energy-workbook.mjs';

const url = (p) => pathToFileURL(p).href;

/**
 * Prepare `<work>/area-data/mirror`; returns { dataDir, scale } where scale maps each dataset to where its
 * file came from ('bench: <path>', 'generated: <what>', 'fixture: <what>').
 */
export async function prepareAreaData({ work, repo, dist, threads, log, env = process.env }) {
  const dataDir = join(work, 'area-data');
  const mirror = join(dataDir, 'mirror');
  const cacheDir = join(dataDir, 'cache');
  const src = join(dataDir, 'src');
  mkdirSync(mirror, { recursive: true });
  mkdirSync(src, { recursive: true });
  const fx = (...p) => join(repo, 'test', 'fixtures', ...p);
  const scale = {};

  const present = (file) => existsSync(join(mirror, file));
  /** Link another bench's mirror file in; false when that bench has not left one. */
  const link = (file, from) => {
    if (!existsSync(from)) return false;
    try {
      // a file built here earlier stays (its .scale says what it is); a link is renewed
      if (!lstatSync(join(mirror, file)).isSymbolicLink()) return false;
      rmSync(join(mirror, file));
    } catch {
      /* not there */
    }
    symlinkSync(from, join(mirror, file));
    return true;
  };
  /** Sync a dataset into the area mirror through the real sync path (in a child: DuckDB's memory is its own). */
  const sync = (dataset, from, extra = {}) => {
    const t0 = performance.now();
    runNode(`
      import { syncDataset } from '${url(join(dist, 'src', 'sync-runner.js'))}';
      const r = await syncDataset('${dataset}', { from: ${JSON.stringify(from)}, mirrorDir: '${mirror}', cacheDir: '${cacheDir}', env: {}, threads: ${threads}, ...${JSON.stringify(extra)} });
      console.log(JSON.stringify({ rows: r.rows_total ?? null }));`);
    log(`area data: synced ${dataset} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  };

  // 1. and 2.: the national-scale datasets
  const national = [
    ['postcodes', 'postcodes.duckdb', join(work, 'places-mirror', 'mirror', 'postcodes.duckdb'), null],
    ['crime', 'crime.duckdb', join(work, 'crime-mirror', 'mirror', 'crime.duckdb'), null],
    ['price-paid', 'price_paid.duckdb', join(work, 'mirror', 'price_paid.duckdb'), async () => {
      const rows = Number(env.BENCH_AREA_PP_ROWS ?? 30_000_000);
      const csv = join(src, `pp-complete-${rows}.csv`);
      if (!existsSync(csv)) {
        runNode(ppGenerateCode({ rows, path: `${csv}.tmp`, threads }));
        const { renameSync } = await import('node:fs');
        renameSync(`${csv}.tmp`, csv);
      }
      sync('price-paid', [csv]);
      return `generated: ${rows.toLocaleString('en-GB')} price-paid rows (bench/lib/pp-gen.mjs)`;
    }],
    ['food-hygiene', 'food_hygiene.duckdb', join(work, 'fh-mirror', 'mirror', 'food_hygiene.duckdb'), async () => {
      const n = Number(env.BENCH_AREA_FH_ESTABLISHMENTS ?? 500_000);
      const dir = join(src, `fh-${n}`);
      if (!existsSync(join(dir, '.done'))) {
        generateFoodHygiene(dir, { files: 400, establishments: n });
        writeFileSync(join(dir, '.done'), '');
      }
      sync('food-hygiene', dir);
      return `generated: ${n.toLocaleString('en-GB')} establishments (bench/lib/food-hygiene-gen.mjs)`;
    }],
    ['road-safety', 'road_safety.duckdb', null, async () => {
      // never another bench's road-safety file: a mirror synced before collision_points existed lacks it
      const per = Number(env.BENCH_AREA_RS_COLLISIONS ?? 100_000);
      const input = join(work, `stats19-${per}`); // the road-safety bench's input, when it has run
      await generateStats19({ input, perYear: per, years: [2020, 2021, 2022, 2023, 2024], threads, dist, log });
      sync('road-safety', [input]);
      return `generated: 5 years x ${per.toLocaleString('en-GB')} collisions (bench/lib/stats19-gen.mjs)`;
    }],
  ];
  for (const [dataset, file, other, build] of national) {
    if (other && link(file, other)) scale[dataset] = `bench: ${other.slice(work.length + 1)}`;
    else if (present(file) && existsSync(join(dataDir, `${dataset}.scale`))) scale[dataset] = (await import('node:fs')).readFileSync(join(dataDir, `${dataset}.scale`), 'utf8');
    else if (build) {
      scale[dataset] = await build();
      writeFileSync(join(dataDir, `${dataset}.scale`), scale[dataset]);
    } else throw new Error(`${dataset}: no ${file} under bench/.work (run that dataset's bench first, or link one into ${join(work, other ? other.slice(work.length + 1) : '')})`);
  }

  // 3.: small nationally, or no bench input to reuse: the test fixtures
  const small = [
    ['schools', 'schools.duckdb', join(work, 'schools-mirror', 'mirror', 'schools.duckdb'),
      () => sync('schools', ['GENERATED-gias-leeds-rows.csv', 'ofsted-mi-latest-inspections-28-Feb-2026-leeds-first-40.csv'].map((f) => fx('schools', f))), 'fixture: Leeds GIAS rows'],
    ['companies', 'companies.duckdb', join(work, 'mirror', 'companies.duckdb'), () => {
      const ch = join(src, 'BasicCompanyDataAsOneFile-2026-11-01.csv');
      copyFileSync(fx('companies', 'basic-sample.csv'), ch);
      sync('companies', [ch]);
    }, 'fixture: the register sample'],
    ['hpi', 'hpi.duckdb', null, () => sync('hpi', [fx('property', 'uk-hpi', 'UK-HPI-full-file-sample.csv')]), 'fixture: UK HPI sample'],
    ['earnings', 'earnings.duckdb', null, () => sync('earnings', [fx('earnings', 'Home Geography Table 8.7a   Annual pay - Gross 2020.xls')]), 'fixture: ASHE Table 8.7a 2020'],
    ['road-traffic', 'road_traffic.duckdb', null, () => sync('road-traffic', [fx('vehicles', 'dft-road-traffic', 'dft_aadf_local_authority_id_63.csv')]), 'fixture: Leeds AADF'],
    ['energy-price-cap', 'energy_price_cap.duckdb', null, () => {
      const wb = join(src, 'energy-price-cap-levels-pre-levelised-rates-model.xlsx');
      writeFileSync(wb, generateLevelsWorkbook().buffer);
      sync('energy-price-cap', [wb]);
    }, 'generated: levels model (bench/lib/energy-workbook.mjs)'],
  ];
  for (const [dataset, file, other, build, what] of small) {
    if (other && link(file, other)) scale[dataset] = `bench: ${other.slice(work.length + 1)}`;
    else {
      if (!present(file)) build();
      scale[dataset] = what;
    }
  }
  log(`area data: ${readdirSync(mirror).filter((f) => f.endsWith('.duckdb')).length} mirror files in ${mirror}`);
  return { dataDir, mirror, scale };
}
