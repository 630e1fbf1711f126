/**
 * The earnings domain's reference data (data/earnings/*.yaml): GSS entity -> geography level, SIC 2007
 * and SOC 2020 levels by code shape, the ASHE tables, sub-tables, sheets and suppression markers. Pure
 * lookups; nothing here reads the mirror.
 */
import { loadData } from '../../data.js';
import type { Basis, Measure, Population } from './routes.js';

export type Family = 'geography' | 'industry' | 'occupation';

interface CodeLists {
  geography_levels: { values: Array<{ entity: string; level: string }> };
  sic_2007: { levels: Array<{ level: string; pattern: string }>; sections: Array<{ section: string; divisions: [number, number] }> };
  soc_2020: { first_year: number; levels: Array<{ level: string; pattern: string }> };
}

export interface AsheTable {
  table: string;
  family: Family;
  basis?: Basis;
  page: string;
  title: string;
}

interface AsheTables {
  tables: AsheTable[];
  measures: Array<{ sub: string; measure: Measure; title: string }>;
  sheets: Array<{ sheet: string; population: Population }>;
  markers: Array<{ marker: string; meaning: string; suppressed: boolean }>;
}

let lists: CodeLists | undefined;
let tables: AsheTables | undefined;
const codeLists = (): CodeLists => (lists ??= loadData<CodeLists>('earnings/code-lists'));
export const asheTables = (): AsheTables => (tables ??= loadData<AsheTables>('earnings/ashe-tables'));

let geoLevels: Map<string, string> | undefined;
/** The level of a GSS code by its entity (first three characters), or undefined when the entity is not listed. */
export function geographyLevel(code: string): string | undefined {
  geoLevels ??= new Map(codeLists().geography_levels.values.map((v) => [v.entity, v.level]));
  return /^[A-Z]\d{8}$/.test(code) ? geoLevels.get(code.slice(0, 3)) : undefined;
}

function byPattern(levels: Array<{ level: string; pattern: string }>, code: string): string | undefined {
  return levels.find((l) => new RegExp(l.pattern).test(code))?.level;
}

/** SIC 2007: `section` for a listed section letter, `division` for two digits inside a section's range. */
export function industryLevel(code: string): string | undefined {
  const level = byPattern(codeLists().sic_2007.levels, code);
  if (level === 'division') {
    const d = Number(code);
    return codeLists().sic_2007.sections.some((s) => d >= s.divisions[0] && d <= s.divisions[1]) ? level : undefined;
  }
  return level;
}

/** SOC: the level by number of digits (major 1, sub_major 2, minor 3, unit 4). */
export function occupationLevel(code: string): string | undefined {
  return byPattern(codeLists().soc_2020.levels, code);
}

/** SOC version of a year's occupation codes: SOC 2020 from the first year ONS coded to it, SOC 2010 before. */
export function socVersion(year: number): 'SOC 2020' | 'SOC 2010' {
  return year >= codeLists().soc_2020.first_year ? 'SOC 2020' : 'SOC 2010';
}

export function levelOf(family: Family, code: string): string | undefined {
  return family === 'geography' ? geographyLevel(code) : family === 'industry' ? industryLevel(code) : occupationLevel(code);
}

export function tableInfo(table: string): AsheTable | undefined {
  return asheTables().tables.find((t) => t.table === table);
}

export function measureOfSub(sub: string): Measure | undefined {
  return asheTables().measures.find((m) => m.sub === sub)?.measure;
}

/** Sheet name -> population, compared without case, spaces or hyphens ('Male Full-Time' = 'male full time'). */
export function populationOfSheet(sheet: string): Population | undefined {
  const norm = (s: string) => s.toLowerCase().replace(/[^a-z]+/g, '');
  return asheTables().sheets.find((s) => norm(s.sheet) === norm(sheet))?.population;
}

/** A cell's marker (trimmed), with whether it is a suppression and ONS's meaning; undefined for a string that is no marker. */
export function markerOf(text: string): { marker: string; suppressed: boolean; meaning: string } | undefined {
  const t = text.trim();
  const m = asheTables().markers.find((x) => x.marker === t);
  return m ? { marker: m.marker, suppressed: m.suppressed, meaning: m.meaning } : undefined;
}
