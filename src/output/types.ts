/**
 * What the output layer prints and how: an answer, the options it prints under, and the renderer shape a
 * domain implements for its own table views. Types only, so a domain's renderers need not import the
 * output layer's machinery (which sits above the domains).
 */
import type { RouteSpec } from '../contract/route.js';
import type { SuccessEnvelope } from '../contract/types.js';

export type Format = 'table' | 'json' | 'ndjson' | 'csv';

/** A terminal renderer for one answer (table mode), imported lazily by id (a route id or a command id). */
export type RendererRef = () => Promise<Renderer | readonly Renderer[]>;

/** One answer to print. */
export interface Output {
  envelope: SuccessEnvelope;
  /** The route that answered (its `records` path says where the record list is). */
  route?: RouteSpec;
  /** Renderer id: the route id, or a command id (`mirror.status`, `sql`, `api.list`, `tax.take-home.sweep`). */
  id?: string;
  /** Where the answer came from, for the table footer (no footer when absent). */
  source?: 'live' | 'local';
  credits?: number;
  /** Records path inside `data` when there is no route (command outputs). */
  records?: string;
}

export interface RenderContext {
  format: Format;
  color: boolean;
  /** Terminal width (0: do not fit). */
  columns: number;
  /** stdout is a terminal (JSON is pretty-printed there). */
  tty: boolean;
  fields?: readonly string[];
  /** `--wide`: every column and nested field in the table format. */
  wide: boolean;
  /** The command's own options (e.g. `--chart`). */
  options: Record<string, unknown>;
  /** A later page of a streamed answer (`--all`): CSV leaves out its header. */
  continuation?: boolean;
  /** CSV of a route's records: the columns its record schema gives (`csvColumns`), the same on every page. */
  csvColumns?: readonly string[];
  /** The domains' terminal renderers for an answer id (the registry's, passed down by the caller). */
  renderers?: (id: string) => readonly RendererRef[];
}

export interface Renderer {
  name: string;
  canRender(out: Output, rc: RenderContext): boolean;
  render(out: Output, rc: RenderContext): string | Promise<string>;
}

/** What a domain registers: route id -> renderer(s) for the table format. */
export type RendererMap = Record<string, Renderer | readonly Renderer[]>;
