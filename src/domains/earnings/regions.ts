/**
 * The earnings domain's `geography` in the shared region vocabulary (issue 37; src/reference/regions.ts):
 * ASHE's areas are ONS areas, so every ONS country and English region of data/reference/regions.yaml is its
 * own GSS code: "North West", `north_west` and `e12000002` are E12000002. Other GSS codes (local
 * authorities, counties) are taken as typed; on the regions route any other text is a name substring.
 */
import { onsAreaTargets, regionResolver } from '../../reference/regions.js';

const GSS = /^\s*[A-Za-z]\d{8}\s*$/;
const targets = onsAreaTargets;

/** POST /v1/earnings/percentile: a GSS code, or a country or region by name or slug. */
export const percentileGeography = regionResolver({
  what: 'a GSS code or the name of a UK country or English region',
  accepted: 'any GSS code (a local authority too, e.g. E08000035; `earnings regions` lists the areas loaded)',
  targets,
  passThrough: (raw) => GSS.test(raw),
});

/** GET /v1/earnings/regions: as above, and any other text is a name substring. */
export const regionsGeography = regionResolver({ what: 'an area', targets, passThrough: () => true });
