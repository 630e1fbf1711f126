/**
 * The schools domain's statistics `region` in the shared region vocabulary (issue 37;
 * src/reference/regions.ts): the register's government office regions (GIAS `GOR (name)`, or the one-letter
 * `GOR (code)`), and the ONS region or country each corresponds to by name or GSS code (data/schools/reference.json
 * `regions.codes[].gss`: "North West", `north_west`, E12000002 and B are GIAS's North West).
 */
import { loadJsonFile } from '../../data.js';
import { regionResolver } from '../../reference/regions.js';

interface Gor { code: string; name: string; gss?: string }

export const schoolsRegion = regionResolver({
  what: "a region of the schools register (GIAS's government office regions)",
  unmatched: "is not one of the register's regions (GIAS files establishments under the English regions and Wales)",
  targets: () =>
    loadJsonFile<{ regions: { codes: Gor[] } }>('schools/reference.json').regions.codes.map((g) => ({
      value: g.name, names: [g.code], gss: g.gss ? [g.gss] : [], label: `${g.name} (${g.code})`,
    })),
});
