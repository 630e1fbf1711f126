/** The shipped reference data of the crime domain (data/crime/*.json, each with its source and date). */
import { loadJsonFile } from '../../data.js';

export interface CategoryMap {
  as_of: string;
  source: string;
  source_url: string;
  categories: Array<{ category: string; label: string }>;
}

export interface ForceList {
  as_of: string;
  source: string;
  source_url: string;
  forces: Array<{ force: string; name: string }>;
}

/** Label (the street CSV's Crime type) -> API slug, with the date and source of the map. */
export function categoryMap(): CategoryMap {
  return loadJsonFile<CategoryMap>('crime/categories.json');
}

export function forceList(): ForceList {
  return loadJsonFile<ForceList>('crime/forces.json');
}
