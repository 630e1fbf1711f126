/**
 * The example domain's records: INVENTED for tests (no publisher, no upstream file). Chosen so that the
 * shared tests have what they look for: titles longer than a narrow terminal's column, `markers` objects
 * with different keys (and none), and a `location` that is null on some records.
 */
export interface ExampleItem {
  id: number;
  title: string;
  colour: 'red' | 'green' | 'blue';
  count: number;
  markers: Record<string, string>;
  location: { latitude: number; longitude: number } | null;
}

const COLOURS = ['red', 'green', 'blue'] as const;

/** 60 items: id i has colour COLOURS[i % 3], count i * 7, a location unless i % 4 === 0, markers on every fifth. */
export const ITEMS: readonly ExampleItem[] = Array.from({ length: 60 }, (_, k): ExampleItem => {
  const i = k + 1;
  return {
    id: i,
    title: `Example item number ${i} with a title long enough to be cut at eighty columns`,
    colour: COLOURS[i % 3]!,
    count: i * 7,
    markers: i % 10 === 0 ? { count: 'x', title: 'estimated' } : i % 5 === 0 ? { count: 'x' } : {},
    location: i % 4 === 0 ? null : { latitude: 51 + i / 100, longitude: -1 + i / 100 },
  };
});

export const CAVEAT = 'Example data, invented for tests.';
export const WARNING = 'Example warning: these items are not real.';
export const NOTE = 'No notes here: the example domain has none to give.';
