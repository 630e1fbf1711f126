// Types of schools-gen.mjs (a plain module so that bench/schools.bench.mjs can import it too).
export const GRADED_HEADER: string[];
export function headerOf(text: string): string[];
export function giasLine(header: readonly string[], fields: Record<string, string>): string;
export function plainLine(header: readonly string[], fields: Record<string, string>, missing?: string): string;
export function encode1252(text: string): Buffer;
export function rng(seed: number): () => number;
export function giasFields(urn: number, r: () => number, over?: Record<string, string>): Record<string, string>;
export function generatedRegister(header: readonly string[], n: number, seed?: number): string;
export function generatedReportCard(header: readonly string[], n: number, seed?: number): string;
