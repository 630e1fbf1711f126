/**
 * The house price index's `region` in the shared region vocabulary (issue 37; src/reference/regions.ts):
 * the UK HPI's areas carry ONS GSS codes, so an ONS country or English region by name, slug or code in any
 * case is its code (`north_west`, `e12000002`: E12000002); anything else is matched as before (an area's
 * name, any case, or its code).
 */
import { onsAreaTargets, regionResolver } from '../../reference/regions.js';

export const hpiRegion = regionResolver({ what: 'an HPI area', targets: onsAreaTargets, passThrough: () => true });
