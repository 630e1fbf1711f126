// Types of vat-gen.mjs (a plain module so that bench/*.bench.mjs can import it too).
export const KINDS: ReadonlyArray<readonly [string, string, string]>;
export const PCT: Record<string, number>;
export function mixedBody(
  n: number,
  seed?: number,
  company?: Record<string, unknown>,
): { company: Record<string, unknown>; period: { start_date: string; end_date: string }; transactions: Record<string, unknown>[] };
